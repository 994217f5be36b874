#!/bin/bash
cd $(dirname $0)
./checks.sh jacobi3d3 > jacobi3d3-checks.txt 2>&1
./run.sh jacobi3d3
for r in arrayresult arrayfield arraybound recstep nqueens; do echo "== repros $r $(date -u +%T)"; ./repros.sh $r; done
echo "== profargs $(date -u +%T)"
PREDICT=/tmp/predictK ./profargs.sh lbm2 "-nx 64 -ny 64 -steps 200" "-nx 256 -ny 256 -steps 300"
PREDICT=/tmp/predictK ./profargs.sh jacobi3d3 "-n 24" "-n 64"
PREDICT=/tmp/predictK ./profargs.sh nqueens "-n 10" "-n 12"
echo "== done $(date -u +%T)"
