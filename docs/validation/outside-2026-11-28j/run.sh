#!/bin/bash
# run.sh NAME [ARGS...]: predict speedup --np 1:64 (default preset), then
# predict validate --np 1,2,4,8 --reps 3 on vm9-2026-11-27h/local.yaml.
# Every timed step holds /tmp/parpredict-timing.lock. SKIP_SWEEP=1 / SKIP_VALIDATE=1.
set -u
PREDICT=${PREDICT:-/tmp/predictJ}
name=$1; shift
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm
mkdir -p $vm
cd $here/$name
if [ -z "${SKIP_SWEEP:-}" ]; then
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 $PREDICT speedup . --np 1:64 --profile $vm/speedup.profile.json -- "$@" > $vm/speedup.txt 2> $vm/speedup.err
  echo "$name speedup rc=$? $(echo "$(date +%s.%N) - $s" | bc) s (incl. lock wait) end $(date -u +%H:%M:%S)" | tee -a $vm/times.txt
fi
if [ -z "${SKIP_VALIDATE:-}" ]; then
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 $PREDICT validate . --np 1,2,4,8 --reps 3 \
    --machine /work/main/docs/validation/vm9-2026-11-27h/local.yaml --profile $vm/$name.profile.json \
    -- "$@" -check=false > $vm/validate.txt 2> $vm/validate.err
  echo "$name validate rc=$? $(echo "$(date +%s.%N) - $s" | bc) s end $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')" | tee -a $vm/times.txt
fi
