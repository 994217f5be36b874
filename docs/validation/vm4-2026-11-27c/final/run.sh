#!/bin/bash
# after/run.sh: as ../run.sh, with the contention ratio paired within rounds (52018d5)
# (fresh machine file and profiles in this folder).
set -u
d=docs/validation/vm4-2026-11-27c/final
/tmp/predict bench --out $d/local.yaml --report $d/bench.log --quiet
for pass in pass1 pass2; do
  bash docs/validation/vm2-2026-11-23h/run.sh $d/$pass $d/local.yaml $d/profiles
done
