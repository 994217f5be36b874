#!/bin/bash
# ./run.sh NAME [ARGS...]: speedup sweep (default preset) and validate on vm9 local.yaml
# SKIP_SWEEP=1 to skip the sweep; PREDICT to choose the tool (default /tmp/predictG)
set -u
cd "$(dirname "$0")/$1"; name=$1; shift
P=${PREDICT:-/tmp/predictG}
LOCK=/tmp/parpredict-timing.lock
if [ -z "${SKIP_SWEEP:-}" ]; then
  date -u +"sweep start %H:%M:%S"
  /usr/bin/time -f "sweep wall %e s" flock $LOCK timeout 600 $P speedup . --np 1:64 --profile ../$name-vm/speedup.profile.json -- "$@" >../$name-vm/speedup.txt 2>../$name-vm/speedup.err
  echo "rc $?"
fi
date -u +"validate start %H:%M:%S"
/usr/bin/time -f "validate wall %e s" flock $LOCK timeout 600 $P validate . --np 1,2,4,8 --reps 5 --machine /work/main/docs/validation/vm9-2026-11-27h/local.yaml --profile ../$name-vm/$name.profile.json -- "$@" -check=false >../$name-vm/validate${VTAG:-}.txt 2>../$name-vm/validate${VTAG:-}.err
echo "rc $?"
date -u +"done %H:%M:%S"
