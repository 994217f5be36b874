#!/bin/sh
# one rank, real run against prediction (local machine file): the second
# loop's calls as long as the first's, then 100 times shorter
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictQ}
for short in 2000 20; do
  echo "== -short $short"
  flock /tmp/parpredict-timing.lock $P validate . --np 1 --reps 3 --quiet --reprofile 0 --profile /tmp/Q-repro-st-$short.profile.json -- -short $short 2>&1 | grep -v "machine file"
done
