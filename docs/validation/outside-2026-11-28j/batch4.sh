#!/bin/bash
# batch4.sh (queued 00:44 UTC): summa --json twice (determinism), pic1d profile-args.
P=/tmp/predictJ
here=$(cd $(dirname $0) && pwd)
L="flock /tmp/parpredict-timing.lock"
cd $here/summa
for k in 1 2; do
  s=$(date +%s); $L timeout 600 $P speedup . --np 1:64 --json --profile ../summa-vm/nocheck/speedup.profile.json -- -check=false > ../summa-vm/nocheck/speedup$k.json 2>>../batch4.err
  echo "summa json $k rc=$? $(( $(date +%s)-s )) s end $(date -u +%T)"
done
cmp ../summa-vm/nocheck/speedup1.json ../summa-vm/nocheck/speedup2.json && echo "summa json identical"
cd $here; ./profargs.sh pic1d "-particles 50000" "-particles 600000"
