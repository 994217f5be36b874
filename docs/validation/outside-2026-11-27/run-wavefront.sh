#!/bin/bash
# run-wavefront.sh [DIR]: a fresh predict bench, then two passes of predict
# validate of wavefront at P = 1, 2, 4, 8 (the first making the profile, the
# second reusing it), and one pass of the binary /tmp/predict-old (the code
# before the change under test) with a profile of its own; from this folder's
# parent repository root, /tmp/predict built from the commit under test.
set -u
here=docs/validation/outside-2026-11-27
d=${1:-$here/wavefront-vm}
mkdir -p $d
/tmp/predict bench --out $d/local.yaml --report $d/bench.log --quiet
v() { # v BINARY PASS PROFILE
  (cd $here/wavefront && $1 validate . --np 1,2,4,8 --reps 5 --quiet --json --machine ../../../../$d/local.yaml \
    --profile ../../../../$d/$3 -- -check=false) > $d/$2.json 2> $d/$2.err
  echo "$2 rc=$? $(uptime)"
}
v /tmp/predict pass1 wavefront.profile.json
v /tmp/predict pass2 wavefront.profile.json
if [ -x /tmp/predict-old ]; then v /tmp/predict-old before wavefront-before.profile.json; fi
