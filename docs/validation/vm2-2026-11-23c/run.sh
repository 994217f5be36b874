#!/bin/bash
# 2-core validation pass: run.sh OUTDIR, from the repository root, with
# predict built at the commit under test (go build -o /tmp/predict ./cmd/predict).
# Each example is profiled afresh; timing runs hold the lock that the
# project's timing tests take, so that nothing of ours runs beside them.
set -u
out=$1; mkdir -p "$out"
lock=/tmp/parpredict-timing.lock
for ex in heat matmul transpose mandelbrot cg; do
  rm -f "$out/$ex.profile.json"
  flock -x $lock /tmp/predict validate ./examples/$ex --np 1,2,4,8 --reps 5 --quiet --json \
    --profile "$out/$ex.profile.json" -- -check=false > "$out/$ex.json" 2> "$out/$ex.err"
  echo "$ex rc=$? $(uptime)"
done
rm -f "$out/pingpong.profile.json"
flock -x $lock /tmp/predict validate ./examples/pingpong --np 2,4,8 --reps 5 --interval 1 --quiet --json \
  --profile "$out/pingpong.profile.json" -- -reps 200 -max 65536 > "$out/pingpong.json" 2> "$out/pingpong.err"
echo "pingpong rc=$? $(uptime)"
