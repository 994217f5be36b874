#!/bin/bash
# run.sh [DIR]: a fresh predict bench, then two passes of
# vm2-2026-11-23h/run.sh (profiles made by the first pass, reused by the
# second), writing into DIR (default this folder; after/ at e90421f,
# final/ at 52018d5), from the repository root, with /tmp/predict built
# from the commit under test.
set -u
d=${1:-docs/validation/vm4-2026-11-27c}
/tmp/predict bench --out $d/local.yaml --report $d/bench.log --quiet
for pass in pass1 pass2; do
  bash docs/validation/vm2-2026-11-23h/run.sh $d/$pass $d/local.yaml $d/profiles
done
