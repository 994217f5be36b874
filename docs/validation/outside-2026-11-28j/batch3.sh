#!/bin/bash
# batch3.sh (queued 00:41 UTC): determinism (--json twice), pic1d sweep over powers of two,
# profile-args with --profile-ppn 1,2 (around fault 5), interval times from --json.
P=/tmp/predictJ; M=/work/main/docs/validation/vm9-2026-11-27h/local.yaml
here=$(cd $(dirname $0) && pwd)
L="flock /tmp/parpredict-timing.lock"
t() { local s=$(date +%s); "$@"; echo "rc=$? $(( $(date +%s)-s )) s end $(date -u +%T): ${*:3:14}" >&2; }
for p in summa sieve; do
  cd $here/$p
  for k in 1 2; do
    t $L timeout 600 $P speedup . --np 1:64 --json --profile ../$p-vm/nocheck/speedup.profile.json -- -check=false > ../$p-vm/nocheck/speedup$k.json 2>> ../batch3.err
  done
  cmp ../$p-vm/nocheck/speedup1.json ../$p-vm/nocheck/speedup2.json && echo "$p json identical" >&2
done
cd $here/pic1d
t $L timeout 600 $P speedup . --np 1,2,4,8,16,32,64 --profile ../pic1d-vm/nocheck/speedup.profile.json -- -check=false > ../pic1d-vm/nocheck/speedup-pow2.txt 2>&1
cd $here/summa
t $L timeout 600 $P speedup . --np 1,2 --machine $M --profile ../summa-vm/small-ppn.profile.json --profile-ppn 1,2 --profile-args "-n 400 -check=false" --json -- -n 1100 -check=false > ../summa-vm/profargs-ppn.json 2>> ../batch3.err
cd $here/sieve
t $L timeout 600 $P speedup . --np 1,2 --machine $M --profile ../sieve-vm/small-ppn.profile.json --profile-ppn 1,2 --profile-args "-N 20000000 -check=false" --json -- -N 300000000 -check=false > ../sieve-vm/profargs-ppn.json 2>> ../batch3.err
