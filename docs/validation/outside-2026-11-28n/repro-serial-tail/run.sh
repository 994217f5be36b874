#!/bin/sh
# 12 ranks on one ib-qdr node (1x12) against 12 nodes (12x1) and 2 nodes
# (2x6), with and without the serial tail on rank 0.
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictN}
go run . -np 4 | head -1
rm -f /tmp/N-repro-tail*.json
for t in true false; do
  for ppn in 1 6 12; do
    echo "=== -tail=$t --np 12 --ppn $ppn"
    flock /tmp/parpredict-timing.lock timeout 600 $P speedup . --quiet --np 1,12 --ppn $ppn --at 12 --profile /tmp/N-repro-tail-$t.profile.json -- -tail=$t 2>&1 | grep -E "^ +(1|12) +[0-9]+x|^ +0 +[0-9]"
  done
done
