#!/bin/bash
# usage: run.sh NAME [ARGS...]  -- speedup sweep + validate, outputs in ../NAME-vm
N=$1; shift
D=/tmp/ppM/docs/validation/outside-2026-11-28m
cd $D/$N
echo "== $N speedup start $(date -u)"
/usr/bin/time -f "%e s wall %M KB" flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictM speedup . --np 1:64 --profile ../$N-vm/speedup.profile.json -- "$@" > ../$N-vm/speedup.txt 2> ../$N-vm/speedup.err; echo "rc=$?"
echo "== $N validate start $(date -u)"
/usr/bin/time -f "%e s wall %M KB" flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictM validate . --np 1,2,4,8 --reps 3 --machine /work/main/docs/validation/vm13-2026-11-28e/local.yaml --profile ../$N-vm/$N.profile.json -- -check=false "$@" > ../$N-vm/validate.txt 2> ../$N-vm/validate.err; echo "rc=$?"
echo "== $N done $(date -u)"
