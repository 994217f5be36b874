#!/bin/bash
# run.sh NAME [ARGS...]: two passes of predict validate of NAME/ at P = 1, 2,
# 4, 8 (JSON; the first makes the profile NAME-vm/NAME.profile.json, the
# second reuses it), then one more printing the table; /tmp/predictB built
# from this checkout, the machine file of vm6-2026-11-27e. Each pass holds
# /tmp/parpredict-timing.lock (the machine is shared).
set -u
name=$1; shift
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm
mkdir -p $vm
cd $here/$name
for pass in validate validate2 table; do
  json=--json; out=$vm/$pass.json
  [ $pass = table ] && json= && out=$vm/table.txt
  start=$(date +%s.%N)
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictB validate . --np 1,2,4,8 --reps 5 --quiet $json \
    --machine /work/main/docs/validation/vm6-2026-11-27e/local.yaml --profile $vm/$name.profile.json \
    -- "$@" -check=false > $out 2> $vm/$pass.err
  echo "$name $pass rc=$? $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')"
done
