#!/bin/bash
# a second table pass of validate for each program (same profile as run.sh's)
here=$(cd $(dirname $0) && pwd)
for name in fft bitonic bitonic-plain; do
  cd $here/$name
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictE validate . --np 1,2,4,8 --reps 5 --quiet \
    --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml --profile $here/$name-vm/$name.profile.json \
    -- -check=false > $here/$name-vm/table2.txt 2> $here/$name-vm/table2.err
  echo "$name table2 rc=$? $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')" | tee -a $here/$name-vm/times.txt
done
