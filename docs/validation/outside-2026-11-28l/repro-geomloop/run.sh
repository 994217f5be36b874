#!/bin/bash
cd /tmp/ppL/docs/validation/outside-2026-11-28l/repro-geomloop
flock /tmp/parpredict-timing.lock timeout 300 /tmp/predictL speedup . --machine /work/main/docs/validation/vm13-2026-11-28e/local.yaml --np 1,2 --profile /tmp/reproL-geom-small.profile.json --profile-args="-n 256 -rows 64 -reps 50" -- -n 16384 -rows 64 -reps 3 > out-profargs.txt 2>&1
flock /tmp/parpredict-timing.lock timeout 300 /tmp/predictL validate . --machine /work/main/docs/validation/vm13-2026-11-28e/local.yaml --np 1,2 --reps 3 --profile /tmp/reproL-geom-big.profile.json -- -n 16384 -rows 64 -reps 3 > out-validate-big.txt 2>&1
