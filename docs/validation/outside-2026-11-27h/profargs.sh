#!/bin/bash
# ./profargs.sh NAME "SMALL ARGS" "BIG ARGS": predict BIG from a profile of SMALL (local.yaml, P = 1, 2),
# then real runs of BIG (5 each, the fastest "elapsed" kept).
set -u
cd "$(dirname "$0")/$1"; name=$1
P=${PREDICT:-/tmp/predictG}
LOCK=/tmp/parpredict-timing.lock
date -u +"profargs start %H:%M:%S"
flock $LOCK timeout 600 $P speedup . --machine /work/main/docs/validation/vm9-2026-11-27h/local.yaml --np 1,2 --profile ../$name-vm/profargs.profile.json --profile-args "$2" -- $3 >../$name-vm/profargs.txt 2>../$name-vm/profargs.err
echo "rc $?"
go build -o /tmp/G-pa-$name .
for np in 1 2; do
  best=
  for r in 1 2 3 4 5; do
    t=$(flock $LOCK /tmp/G-pa-$name -np $np $3 | awk '/^elapsed/{print $2}')
    best=$(python3 -c "print(min(float(x) for x in '$t ${best}'.split()))")
  done
  echo "real P=$np: $best s"
done | tee ../$name-vm/profargs-real.txt
date -u +"done %H:%M:%S"
