#!/bin/sh
# repro-append-vector: real per-rank build time vs the prediction's, with
# append and with -prealloc (every timed command under the lock)
cd "$(dirname "$0")" || exit 1
L="flock /tmp/parpredict-timing.lock"
{
date -u; uptime
for a in "" "-prealloc"; do
  for P in 1 4; do $L go run . -np $P -v $a; done
  $L /tmp/predictO speedup . --np 1,4 --at 4 --profile /tmp/O-repro-append$a.profile.json -- $a
done
} > out.txt 2>&1
