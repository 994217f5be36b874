#!/bin/sh
# one rank, real run against prediction (local machine file), with the two
# loops calling one function and calling two copies of it
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictP}
for shared in true false; do
  echo "== -shared=$shared"
  flock /tmp/parpredict-timing.lock $P validate . --np 1 --reps 3 --quiet --reprofile 0 --profile /tmp/P-repro-sc-$shared.profile.json -- -shared=$shared 2>&1 | grep -v "machine file"
done
