#!/bin/bash
# run.sh BIN OUTDIR MACHINE PROFDIR: validate every example with its default arguments
set -u
bin=$1; out=$2; machine=$3; prof=$4; mkdir -p "$out" "$prof"
cd "$(dirname "$0")/../../../.."
for ex in heat matmul transpose mandelbrot cg; do
  $bin validate ./examples/$ex --np 1,2,4,8 --reps 5 --quiet --json --machine "$machine" \
    --profile "$prof/$ex.profile.json" > "$out/$ex.json" 2> "$out/$ex.err"
  echo "$ex rc=$? $(uptime)"
done
