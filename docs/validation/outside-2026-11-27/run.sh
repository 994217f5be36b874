#!/bin/bash
# run.sh [DIR]: a fresh predict bench, then two passes of predict validate of
# halo2d at P = 1, 2, 4, 8 (the first making the profile, the second reusing
# it), from this folder's parent repository root, /tmp/predict built from the
# commit under test.
set -u
here=docs/validation/outside-2026-11-27
d=${1:-$here/vm}
mkdir -p $d
/tmp/predict bench --out $d/local.yaml --report $d/bench.log --quiet
for pass in pass1 pass2; do
  (cd $here/halo2d && /tmp/predict validate . --np 1,2,4,8 --reps 5 --quiet --json --machine ../../../../$d/local.yaml \
    --profile ../../../../$d/halo2d.profile.json -- -n 1024 -steps 100 -check=false) > $d/$pass.json 2> $d/$pass.err
  echo "$pass rc=$? $(uptime)"
done
