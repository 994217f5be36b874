#!/bin/bash
D=/tmp/ppM/docs/validation/outside-2026-11-28m
for N in spmv2 samplesort; do
cd $D/$N
echo "== $N speedup -check=false start $(date -u)"
/usr/bin/time -f "%e s wall %M KB" flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictM speedup . --np 1,2,4,8,16,32,64 --profile ../$N-vm/speedup-nocheck.profile.json -- -check=false > ../$N-vm/speedup-nocheck.txt 2> ../$N-vm/speedup-nocheck.err; echo rc=$?
done
echo "== done $(date -u)"
