#!/bin/sh
# P = 1 and 2 real runs against their prediction on this machine (local),
# with the dear task first (-heavy 0) and last (-heavy 39); then the ib-qdr
# prediction at P = 1, 2 for -heavy 0. After the first iteration the
# remaining ones are costed at the mean of all 40 (the dear task included).
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictP}
for h in 0 39; do
  echo "== -heavy $h"
  flock /tmp/parpredict-timing.lock $P validate . --np 1,2 --reps 3 --quiet --reprofile 0 --profile /tmp/P-repro-fi-$h.profile.json -- -heavy $h 2>&1 | grep -v "machine file"
done
echo "== ib-qdr, -heavy 0"
$P speedup . --np 1,2 --at 2 --quiet --profile /tmp/P-repro-fi-0.profile.json -- -heavy 0
