#!/bin/bash
# batch2.sh (queued 00:42 UTC): repro-packloop at P = 1, 8, 64 alone; pic1d2 sweep 1:64 -check=false (timeout 600)
P=/tmp/predictJ
here=$(cd $(dirname $0) && pwd)
L="flock /tmp/parpredict-timing.lock"
cd $here/repro-packloop
for np in 1 8 64; do
  s=$(date +%s); $L timeout 300 $P speedup . --np $np --jobs 1 --profile /tmp/ppJ-rpl.profile.json > speedup-np$np.txt 2>&1
  echo "repro-packloop --np $np rc=$? $(( $(date +%s)-s )) s end $(date -u +%T)"
done
