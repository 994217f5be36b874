#!/bin/sh
# repro-inner-spread: real per-rank compute vs the prediction's (under the lock)
cd "$(dirname "$0")" || exit 1
L="flock /tmp/parpredict-timing.lock"
{
date -u; uptime
for P in 1 2 4; do $L go run . -np $P -v; done
$L /tmp/predictO speedup . --np 1,2,4 --at 4 --profile-ppn 1,2,4 --profile /tmp/O-repro-inner.profile.json
$L /tmp/predictO validate . --np 1,2,4 --reps 3 --quiet --machine /tmp/ppO/docs/validation/vm13-2026-11-28e/local.yaml --profile /tmp/O-repro-inner-local.profile.json
} > out.txt 2>&1
