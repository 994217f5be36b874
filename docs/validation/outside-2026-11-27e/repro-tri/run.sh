#!/bin/bash
# profile -n 300, predict -n 1000 (P = 1, 2, local.yaml), 3 real runs each; per -form
cd $(dirname $0); go build -o /tmp/tri . || exit 1
for f in closure loop; do
  flock /tmp/parpredict-timing.lock bash -c "
  s=\$(date +%s.%N)
  timeout 600 /tmp/predictE speedup . --quiet --np 1,2 --machine /work/main/docs/validation/vm8-2026-11-27g/local.yaml --profile $f.profile.json --profile-args '-n 300 -form $f' -- -n 1000 -form $f > profargs-$f.txt 2>&1
  echo \"predict \$(echo \"\$(date +%s.%N) - \$s\" | bc) s\" >> profargs-$f.txt
  for np in 1 2; do for r in 1 2 3; do echo np=\$np \$(/tmp/tri -np \$np -n 1000 -form $f | tail -1); done; done > real-$f.txt"
  echo "== $f"; grep -E "^ +[12] +1x|^predict " profargs-$f.txt; cat real-$f.txt | paste -sd' '
done
