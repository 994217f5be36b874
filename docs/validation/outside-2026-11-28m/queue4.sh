#!/bin/bash
D=/tmp/ppM/docs/validation/outside-2026-11-28m
t() { echo "\$ $*  [$(date -u +%H:%M:%S)]"; /usr/bin/time -f "%e s wall %M KB" flock /tmp/parpredict-timing.lock timeout 600 "$@"; echo "rc=$?"; }
cd $D/spmv2
t /tmp/predictM speedup . --np 1,2,4,8,16,32,64 --profile-ppn 1,2 --profile ../spmv2-vm/speedup-ppn.profile.json -- -check=false > ../spmv2-vm/speedup-ppn.txt 2>&1
cd $D/samplesort
t /tmp/predictM speedup . --np 1,2,4,8,16,64 --profile-ppn 1,2 --profile ../samplesort-vm/speedup-ppn.profile.json > ../samplesort-vm/speedup-ppn.txt 2>&1
# d: profile small, predict big
t /tmp/predictM speedup . --np 1:64 --profile ../samplesort-vm/profargs.profile.json --profile-args="-n 200000 -check=false" -- -n 3200000 -check=false > ../samplesort-vm/profargs.txt 2>&1
cd $D/spmv2
t /tmp/predictM speedup . --np 1:64 --profile ../spmv2-vm/profargs.profile.json --profile-args="-m 150 -check=false" -- -m 600 -check=false > ../spmv2-vm/profargs.txt 2>&1
echo "== done $(date -u)"
