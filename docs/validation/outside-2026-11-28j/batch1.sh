#!/bin/bash
# batch1.sh: the checks queued at 00:33 UTC, each under the timing lock.
P=/tmp/predictJ; M=/work/main/docs/validation/vm9-2026-11-27h/local.yaml
here=$(cd $(dirname $0) && pwd)
L="flock /tmp/parpredict-timing.lock"
t() { local s=$(date +%s); "$@"; echo "rc=$? $(( $(date +%s)-s )) s end $(date -u +%T): ${*:3:12}"; }
cd $here/repro-countloop
t $L timeout 300 $P speedup . --np 1 --profile /tmp/ppJ-rcl2.profile.json -- -last > speedup-np1-last.txt 2>&1
cd $here/pic1d
t $L timeout 300 $P speedup . --np 64 --jobs 1 --profile ../pic1d-vm/nocheck/speedup.profile.json -- -check=false > ../pic1d-vm/nocheck/speedup-np64.txt 2>&1
cd $here/repro-ownerfilter
t $L timeout 600 $P validate . --np 1,2,4 --reps 3 --machine $M --profile /tmp/ppJ-rof3.profile.json > validate.txt 2>&1
cd $here; SKIP_SWEEP=1 ./run.sh pic1d2
./profargs.sh summa "-n 400" "-n 1100"
./profargs.sh sieve "-N 20000000" "-N 300000000"
