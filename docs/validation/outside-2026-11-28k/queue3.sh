#!/bin/bash
cd $(dirname $0)
P=/tmp/predictK; M=/work/main/docs/validation/vm9-2026-11-27h/local.yaml
until grep -q "== done" queue2.log; do sleep 5; done
echo "== iterations $(date -u +%T)"
go build -o /tmp/K-j3 ./jacobi3d3 2>/dev/null || (cd jacobi3d3 && go build -o /tmp/K-j3 .)
for n in 24 64; do flock /tmp/parpredict-timing.lock /tmp/K-j3 -n $n -check=false; done
echo "== nqueens n12 validate $(date -u +%T)"
cd nqueens
s=$(date +%s); flock /tmp/parpredict-timing.lock timeout 600 $P validate . --np 1,2,4,8 --reps 3 --machine $M --profile ../nqueens-vm/v12.json -- -n 12 -check=false > ../nqueens-vm/validate-n12.txt 2>&1; echo "rc=$? $(( $(date +%s) - s )) s"
echo "== nqueens n13 speedup np 1 $(date -u +%T)"
s=$(date +%s); flock /tmp/parpredict-timing.lock timeout 600 $P speedup . --np 1 --machine $M --profile ../nqueens-vm/s13.json -- -n 13 > ../nqueens-vm/speedup-n13-np1.txt 2>&1; echo "rc=$? $(( $(date +%s) - s )) s"
echo "== done $(date -u +%T)"
