#!/bin/sh
# run.sh NAME OUTFILE PROFILE [program args...]: validate under the timing lock
name=$1; out=$2; prof=$3; shift 3
cd "$(dirname "$0")/$name" || exit 1
{ date -u; flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictN validate . --np 1,2,4,8 --reps 3 --quiet \
  --machine /work/main/docs/validation/vm13-2026-11-28e/local.yaml --profile "$prof" -- "$@"; echo "rc=$?"; date -u; } > "../$name-vm/$out" 2>&1
