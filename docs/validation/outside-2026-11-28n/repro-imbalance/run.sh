#!/bin/sh
# Real: the largest share and the interval's time; validate on the 2-core VM
# with the work in one piece and in 100 steps; ib-qdr per-rank compute at
# P = 8 with contention runs at 1, 2, 4, 8 ranks (every rank charged the mean).
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictN}
M=/work/main/docs/validation/vm13-2026-11-28e/local.yaml
go build -o /tmp/N-imb-bin .
for s in "1" "100" "100 -flat"; do for np in 1 2 4 8; do flock /tmp/parpredict-timing.lock /tmp/N-imb-bin -np $np -steps $s; done; done
rm -f /tmp/N-repro-imb*.json
for s in "1" "100" "100 -flat"; do
  echo "=== validate -- -steps $s"
  flock /tmp/parpredict-timing.lock timeout 600 $P validate . --quiet --np 1,2,4,8 --reps 3 --machine $M --profile /tmp/N-repro-imb-val$(echo $s | tr -d " -").profile.json -- -steps $s 2>&1
done
echo "=== speedup (ib-qdr) --profile-ppn 1,2,4,8 --at 8"
flock /tmp/parpredict-timing.lock timeout 600 $P speedup . --quiet --np 1,2,4,8 --profile-ppn 1,2,4,8 --at 8 --profile /tmp/N-repro-imb-ppn8.profile.json 2>&1
echo "=== validate --interval 0 (whole runs) -- -steps 100 -flat (out-interval0-flat.txt)"
flock /tmp/parpredict-timing.lock timeout 600 $P validate . --quiet --np 1,2,4,8 --reps 3 --interval 0 --machine $M --profile /tmp/N-repro-imb-val100flat.profile.json -- -steps 100 -flat 2>&1
