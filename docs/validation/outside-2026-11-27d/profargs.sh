#!/bin/bash
# profargs.sh NAME "SMALL ARGS" "BIG ARGS": predict at BIG from a profile made at
# SMALL (--profile-args), P = 1, 2 on local-b.yaml, then real runs at BIG
# (3 each at P = 1, 2; the programs print the interval's time). Holds the lock.
set -u
name=$1 small=$2 big=$3
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm; mkdir -p $vm
cd $here/$name
go build -o /tmp/profargs-$name . || exit 1
flock /tmp/parpredict-timing.lock bash -c "
  s=\$(date +%s.%N)
  timeout 600 /tmp/predictD speedup . --np 1,2 --quiet --machine /work/main/docs/validation/vm7-2026-11-27f/local-b.yaml \
    --profile $vm/profargs.profile.json --profile-args '$small' -- $big > $vm/profargs.txt 2> $vm/profargs.err
  echo \"rc=\$? \$(echo \"\$(date +%s.%N) - \$s\" | bc) s\" >> $vm/profargs.txt
  for np in 1 2; do for r in 1 2 3; do /tmp/profargs-$name -np \$np $big; done; done > $vm/profargs-real.txt 2>&1
"
echo "$name profargs done $(date -u +%H:%M:%S)"
