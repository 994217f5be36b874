#!/bin/bash
# run.sh NAME [ARGS...]: predict speedup --np 1:64 (ib-qdr, timed), then two passes of
# predict validate --np 1,2,4,8 --reps 5 (JSON, then the table) of NAME/,
# /tmp/predictE built once from this checkout, machine file vm8-2026-11-27g/local.yaml.
# Every step holds /tmp/parpredict-timing.lock (the machine is shared).
set -u
name=$1; shift
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm
mkdir -p $vm
cd $here/$name
if [ -z "${SKIP_SWEEP:-}" ]; then
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictE speedup . --np 1:64 --profile $vm/speedup.profile.json -- "$@" > $vm/speedup.txt 2> $vm/speedup.err
  echo "$name speedup rc=$? $(echo "$(date +%s.%N) - $s" | bc) s (incl. waiting for the lock) $(date -u +%H:%M:%S)" | tee -a $vm/times.txt
fi
[ -n "${SKIP_VALIDATE:-}" ] && exit 0
for pass in validate table; do
  json=--json; out=$vm/validate.json
  [ $pass = table ] && json= && out=$vm/table.txt
  s=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictE validate . --np 1,2,4,8 --reps 5 $json \
    --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml --profile $vm/$name.profile.json \
    -- "$@" -check=false > $out 2> $vm/$pass.err
  echo "$name $pass rc=$? $(echo "$(date +%s.%N) - $s" | bc) s $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')" | tee -a $vm/times.txt
done
