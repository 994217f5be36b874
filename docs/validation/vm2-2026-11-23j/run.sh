#!/bin/bash
# run.sh OUTDIR MACHINE PROFDIR: validate every example; profiles in PROFDIR (made if missing)
set -u
out=$1; machine=$2; prof=$3; mkdir -p "$out" "$prof"
cd "$(dirname "$0")/../../.."
for ex in heat matmul transpose mandelbrot cg; do
  /tmp/predict validate ./examples/$ex --np 1,2,4,8 --reps 5 --quiet --json --machine "$machine" \
    --profile "$prof/$ex.profile.json" -- -check=false > "$out/$ex.json" 2> "$out/$ex.err"
  echo "$ex rc=$? $(uptime)"
done
/tmp/predict validate ./examples/pingpong --np 2,4,8 --reps 5 --interval 1 --quiet --json --machine "$machine" \
  --profile "$prof/pingpong.profile.json" -- -reps 200 -max 65536 > "$out/pingpong.json" 2> "$out/pingpong.err"
echo "pingpong rc=$? $(uptime)"
