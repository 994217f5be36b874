#!/bin/bash
# profargs.sh NAME "SMALL ARGS" "BIG ARGS": predict at BIG from a profile made at
# SMALL (--profile-args), P = 1, 2, 4 on vm8 local.yaml, then real runs at BIG
# (3 each at P = 1, 2, 4; the programs print "elapsed:"). Holds the lock.
set -u
name=$1 small=$2 big=$3
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm; mkdir -p $vm
cd $here/$name
go build -o /tmp/profargsE-$name . || exit 1
flock /tmp/parpredict-timing.lock bash -c "
  s=\$(date +%s.%N)
  timeout 600 /tmp/predictE speedup . --np 1,2,4 --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml \
    --profile $vm/profargs.profile.json --profile-args '$small' -- $big > $vm/profargs.txt 2> $vm/profargs.err
  echo \"rc=\$? \$(echo \"\$(date +%s.%N) - \$s\" | bc) s\" >> $vm/profargs.txt
  for np in 1 2 4; do for r in 1 2 3; do echo np=\$np; /tmp/profargsE-$name -np \$np $big -check=false; done; done > $vm/profargs-real.txt 2>&1
"
echo "$name profargs done $(date -u +%H:%M:%S)"
