#!/bin/bash
# profile at -n 256, predict -n 4096 (P = 1, 2, local.yaml), 3 real runs each; per -form
cd $(dirname $0); go build -o /tmp/fftloop . || exit 1
for f in shift stage flat; do
  flock /tmp/parpredict-timing.lock bash -c "
  timeout 600 /tmp/predictE speedup . --quiet --np 1,2 --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml --profile $f.profile.json --profile-args '-n 256 -rows 8192 -form $f' -- -n 4096 -rows 8192 -form $f > profargs-$f.txt 2>&1
  for np in 1 2; do for r in 1 2 3; do echo np=\$np \$(/tmp/fftloop -np \$np -n 4096 -rows 8192 -form $f | tail -1); done; done > real-$f.txt"
  echo "== $f"; grep -E "^ +[12] +1x" profargs-$f.txt; cat real-$f.txt | paste -sd' '
done
