#!/bin/bash
# cmp.sh OUT: alternate calibrations with the single-round (r1) and back-to-back (rN) ping-pong, each followed by a validation pass with the same binary (rN) and shared profiles
out=$1; mkdir -p $out
cd /work/main
for i in 1 2 3; do
  for v in r1 rN; do
    /tmp/predict-$v bench --quiet --out $out/$v-$i.yaml --report $out/$v-$i.txt >/dev/null 2>&1
    cp /tmp/predict-rN /tmp/predict
    bash docs/validation/vm2-2026-11-23h/run.sh $out/$v-$i $out/$v-$i.yaml /tmp/pcmp >/dev/null 2>&1
    echo "$v $i $(date -u +%H:%M:%S) $(grep -A1 'ping-pong fit' $out/$v-$i.txt | tail -1)"
    /tmp/vsum.py $out/$v-$i | sed 's/  drift=-//'
  done
done
