#!/bin/bash
# runab.sh: passes 3-6, alternating the binary of the session's start
# (/tmp/predict-s34, built from 0625bcb) and the session's
# (/tmp/predict), each validating every example as vm2-2026-11-23h/run.sh
# does, with this folder's machine file and profiles; from the
# repository root.
set -u
d=docs/validation/vm14-2026-11-29
for i in 3 4 5 6; do
  if [ $((i % 2)) = 1 ]; then B=/tmp/predict-s34; n=old; else B=/tmp/predict; n=new; fi
  out=$d/pass$i-$n; mkdir -p $out
  echo "pass$i $n $(date -u +%T)"
  for ex in heat matmul transpose mandelbrot cg; do
    $B validate ./examples/$ex --np 1,2,4,8 --reps 5 --quiet --json --machine $d/local.yaml \
      --profile $d/profiles/$ex.profile.json -- -check=false > $out/$ex.json 2> $out/$ex.err
    echo "$ex rc=$? $(uptime)"
  done
  $B validate ./examples/pingpong --np 2,4,8 --reps 5 --interval 1 --quiet --json --machine $d/local.yaml \
    --profile $d/profiles/pingpong.profile.json -- -reps 200 -max 65536 > $out/pingpong.json 2> $out/pingpong.err
  echo "pingpong rc=$? $(uptime)"
done
