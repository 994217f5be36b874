#!/bin/bash
# sweeps.sh: for each program, predict speedup --np 1:64 on ib-qdr twice
# (the first makes NAME-vm/speedup.profile.json, the second is timed:
# NAME-vm/speedup.txt), then --profile-args with a smaller size on the
# machine file local-b at P = 1, 2 (NAME-vm/profile-args.txt).
set -u
here=$(cd $(dirname $0) && pwd)
M=/work/main/docs/validation/vm7-2026-11-27f/local-b.yaml
one() {
  name=$1; small=$2; shift 2
  vm=$here/$name-vm; cd $here/$name
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictC speedup . --np 1:64 --quiet --profile $vm/speedup.profile.json -- "$@" > $vm/speedup-first.txt 2>&1
  echo "$name sweep1 rc=$? $(date -u +%T)"
  flock /tmp/parpredict-timing.lock bash -c "s=\$(date +%s.%N); timeout 600 /tmp/predictC speedup . --np 1:64 --quiet --profile $vm/speedup.profile.json -- $* > $vm/speedup.txt 2>&1; echo rc=\$? wall \$(echo \"\$(date +%s.%N) - \$s\" | bc) s >> $vm/speedup.txt"
  echo "$name sweep2 $(tail -1 $vm/speedup.txt) $(date -u +%T)"
  flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictC speedup . --np 1,2 --quiet --machine $M --profile-args "$small" --profile $vm/small.profile.json -- "$@" > $vm/profile-args.txt 2>&1
  echo "$name profile-args rc=$? $(date -u +%T)"
}
one samplesort "-n 200000 -reps 3" -n 1000000 -reps 3
one transpose2d "-n 128 -steps 12" -n 256 -steps 12
one cartgrid "-n 200 -steps 500 -every 10" -n 600 -steps 500 -every 10
