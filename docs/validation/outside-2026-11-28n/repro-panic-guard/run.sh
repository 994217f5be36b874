#!/bin/sh
# Real runs pass; predictions fail (see out.txt).
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictN}
for a in "" "-early" "-swap" "-swap -early"; do
  for np in 1 2 4; do echo "real -np $np $a: $(go run . -np $np $a)"; done
done
rm -f /tmp/N-repro-panic*.json
for a in "" "-early" "-swap" "-swap -early"; do
  for ppn in "" "1,2"; do
    tag=$(echo "$a$ppn" | tr -d ' ,-')
    echo "=== speedup --np 1,2,4 ${ppn:+--profile-ppn $ppn} -- $a"
    flock /tmp/parpredict-timing.lock timeout 600 $P speedup . --quiet --np 1,2,4 ${ppn:+--profile-ppn $ppn} \
      --profile /tmp/N-repro-panic-$tag.profile.json -- $a 2>&1 | grep -E "^ +[124] |failed|panics|assumptions|branch|rc"
  done
done
