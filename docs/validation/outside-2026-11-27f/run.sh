#!/bin/bash
# run.sh NAME [ARGS...]: predict speedup --np 1:64 (ib-qdr, timed), then
# predict validate --np 1,2,4,8 --reps 5 of NAME/ on vm8-2026-11-27g/local.yaml.
# /tmp/predictF built from this checkout. Every step holds
# /tmp/parpredict-timing.lock (the machine is shared). SKIP_SWEEP=1 / SKIP_VALIDATE=1.
set -u
# pin the parpredict module to /tmp/ppF-snap = git archive 3d1a0a4 (what predictF was
# built from): the working tree's mpi/ was being edited from about 17:31 UTC
PREDICT=${PREDICT:-/tmp/predictF} # the tool; PPF_LIVE=1: build the modules against the working tree
source $(dirname $0)/gw.sh
name=$1; shift
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm
mkdir -p $vm
cd $here/$name && gw .
if [ -z "${SKIP_SWEEP:-}" ]; then
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 $PREDICT speedup . --np 1:64 --profile $vm/speedup.profile.json -- "$@" > $vm/speedup.txt 2> $vm/speedup.err
  echo "$name speedup rc=$? $(echo "$(date +%s.%N) - $s" | bc) s (incl. waiting for the lock) $(date -u +%H:%M:%S)" | tee -a $vm/times.txt
fi
if [ -z "${SKIP_VALIDATE:-}" ]; then
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 $PREDICT validate . --np 1,2,4,8 --reps 5 \
    --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml --profile $vm/$name.profile.json \
    -- "$@" -check=false > $vm/validate.txt 2> $vm/validate.err
  echo "$name validate rc=$? $(echo "$(date +%s.%N) - $s" | bc) s $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')" | tee -a $vm/times.txt
fi
