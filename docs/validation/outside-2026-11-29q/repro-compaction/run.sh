#!/bin/sh
# real run, profile, then the prediction of P = 1 alone (one job), timed
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictQ}
for n in 500000 4000000; do
  echo "== -n $n"
  flock /tmp/parpredict-timing.lock sh -c "/usr/bin/time -f 'real run: %e s wall' go run . -np 1 -n $n"
  flock /tmp/parpredict-timing.lock $P profile . --quiet -o /tmp/Q-repro-cp-$n.profile.json -- -n $n > /dev/null 2>&1
  /usr/bin/time -f 'prediction: %e s wall, %U s user' $P speedup . --machine local --np 1 --jobs 1 --quiet --profile /tmp/Q-repro-cp-$n.profile.json -- -n $n 2>&1 | grep -E '^ +1 |SSA|wall'
done
# the serial-fraction note at P = 1, 2, 4 (ib-qdr) with the elements divided among the ranks
echo "== speedup --np 1,2,4 -- -n 1000000 -split (ib-qdr)"
flock /tmp/parpredict-timing.lock $P profile . --quiet -o /tmp/Q-repro-cp-split.profile.json -- -n 1000000 -split > /dev/null 2>&1
$P speedup . --np 1,2,4 --jobs 1 --quiet --profile /tmp/Q-repro-cp-split.profile.json -- -n 1000000 -split 2>&1 | grep -E "^serial|^ +[124] |serial fraction"
