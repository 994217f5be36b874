#!/bin/bash
# profargs.sh NAME "SMALL ARGS" "BIG ARGS": predict BIG at P = 1, 2 on local.yaml
# from a profile made at SMALL, then time real runs of BIG (3 each, interval 1
# from validate's own runs: predict validate with the same profile).
set -u
PREDICT=${PREDICT:-/tmp/predictK}
name=$1; small=$2; big=$3
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm; mkdir -p $vm
cd $here/$name
prof=$vm/small.profile.json
flock /tmp/parpredict-timing.lock timeout 600 $PREDICT speedup . --np 1,2 --machine /work/main/docs/validation/vm9-2026-11-27h/local.yaml \
  --profile $prof --profile-args "$small -check=false" -- $big -check=false > $vm/profargs-speedup.txt 2>&1
echo "$name profargs speedup rc=$? end $(date -u +%T)" | tee -a $vm/times.txt
# the same big size, real: validate with its own (big) profile gives the actual times
flock /tmp/parpredict-timing.lock timeout 600 $PREDICT validate . --np 1,2 --reps 3 --machine /work/main/docs/validation/vm9-2026-11-27h/local.yaml \
  --profile $vm/big.profile.json -- $big -check=false > $vm/profargs-validate-big.txt 2>&1
echo "$name big validate rc=$? end $(date -u +%T)" | tee -a $vm/times.txt
