#!/bin/bash
# profargs.sh NAME "SMALL ARGS" "BIG ARGS": predict at BIG from a profile made at
# SMALL (--profile-args), P = 1, 2 on vm8-2026-11-27g/local.yaml (speedup refuses
# P > 2 there: 2 cores, no oversubscription), then real runs at BIG (3 each at
# P = 1, 2, 4; the programs print "elapsed:"). Holds the lock throughout.
set -u
PREDICT=${PREDICT:-/tmp/predictF} # the tool; PPF_LIVE=1: build the modules against the working tree
source $(dirname $0)/gw.sh
name=$1 small=$2 big=$3
here=$(cd $(dirname $0) && pwd)
vm=$here/$name-vm; mkdir -p $vm
cd $here/$name && gw .
go build -o /tmp/profargsF-$name . || exit 1
flock /tmp/parpredict-timing.lock bash -c "
  s=\$(date +%s.%N)
  timeout 600 $PREDICT speedup . --np 1,2 --quiet --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml \
    --profile $vm/profargs.profile.json --profile-args '$small -check=false' -- $big -check=false > $vm/profargs.txt 2> $vm/profargs.err
  echo \"rc=\$? \$(echo \"\$(date +%s.%N) - \$s\" | bc) s\" >> $vm/profargs.txt
  for np in 1 2 4; do for r in 1 2 3; do echo \"np=\$np\"; /tmp/profargsF-$name -np \$np $big -check=false; done; done > $vm/profargs-real.txt 2>&1
"
echo "$name profargs done $(date -u +%H:%M:%S)"
