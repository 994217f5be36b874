#!/bin/bash
# run.sh NAME [ARGS...]: predict validate of NAME/ at P = 1, 2, 4, 8 twice:
# once --json (NAME-vm/validate.json; makes the profile
# NAME-vm/NAME.profile.json when missing), once as text (NAME-vm/table.txt),
# /tmp/predictC built from this checkout, the machine file of
# vm7-2026-11-27f. Each pass holds /tmp/parpredict-timing.lock.
set -u
name=$1; shift
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm
mkdir -p $vm
cd $here/$name
for pass in validate table; do
  json=--json; out=$vm/$pass.json
  [ $pass = table ] && json= && out=$vm/table.txt
  start=$(date +%s)
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictC validate . --np 1,2,4,8 --reps 5 --quiet $json \
    --machine /work/main/docs/validation/vm7-2026-11-27f/local-b.yaml --profile $vm/$name.profile.json \
    -- "$@" -check=false > $out 2> $vm/$pass.err
  echo "$name $pass rc=$? $(date -u +%H:%M:%S) $(( $(date +%s) - start )) s $(uptime | sed 's/.*load/load/')"
done
