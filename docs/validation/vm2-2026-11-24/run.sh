#!/bin/bash
# Validates the programs written in common Go style (prediction/testdata)
# at P = 1, 2 and 4 on this machine: predict validate, 5 repetitions, the
# reports as JSON in $OUT (default: this script's directory).
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-docs/validation/vm2-2026-11-24}
go build -o /tmp/predict-validate ./cmd/predict
declare -A ARGS=(
  [kernelcall]="-n 4000 -steps 3"
  [grid2d]="-n 2048 -m 512 -steps 10"
  [nbody]="-n 3000 -steps 3"
  [copies]="-n 1048576 -steps 100"
  [sparse]="-n 200000 -band 20 -steps 20"
  [cyclic]="-rows 64 -n 40000"
  [tasks]="-tasks 64 -n 20000"
  [blocks2d]="-n 1024 -steps 20"
  [summa]="-n 960 -check=false"
  [shapes]="-n 400000 -steps 5"
  [rangelib]="-n 2000000 -reps 10"
)
for ex in ${ONLY:-kernelcall grid2d nbody copies sparse cyclic tasks blocks2d summa shapes rangelib}; do
  /tmp/predict-validate validate ./prediction/testdata/$ex --np 1,2,4 --reps 5 --quiet --json \
    --profile "$OUT/$ex.profile.json" -- ${ARGS[$ex]} > "$OUT/$ex.json"
done
