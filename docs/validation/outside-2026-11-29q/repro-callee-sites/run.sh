#!/bin/sh
# The big loop is the same in both; -tiny 5 adds 500 calls of a 1 x 1 sweep.
cd "$(dirname "$0")"
P=/tmp/predictQ
for t in 0 5; do
  echo "== -tiny $t"
  flock /tmp/parpredict-timing.lock go run . -np 1 -tiny $t
  flock /tmp/parpredict-timing.lock $P validate . --np 1,2 --reps 3 --quiet --profile /tmp/Q-repro-cs-$t.profile.json -- -tiny $t
done
