#!/bin/bash
# 2-core validation pass: usage run.sh OUTDIR
out=$1; mkdir -p $out
cd /work/main
for ex in heat matmul transpose mandelbrot cg; do
  rm -f /tmp/val/$ex.profile.json
  /tmp/predict validate ./examples/$ex --np 1,2,4,8 --reps 5 --quiet --json --profile /tmp/val/$ex.profile.json -- -check=false > $out/$ex.json 2> $out/$ex.err
  echo "$ex rc=$?"
done
rm -f /tmp/val/pingpong.profile.json
/tmp/predict validate ./examples/pingpong --np 2,4,8 --reps 5 --interval 1 --quiet --json --profile /tmp/val/pingpong.profile.json -- -reps 20 -max 65536 > $out/pingpong.json 2> $out/pingpong.err
echo "pingpong rc=$?"
