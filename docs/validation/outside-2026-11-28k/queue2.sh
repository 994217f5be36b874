#!/bin/bash
cd $(dirname $0)
until grep -q "== done" queue1.log; do sleep 5; done
echo "== arrayfield $(date -u +%T)"; ./repros.sh arrayfield
echo "== jacobi3d4 $(date -u +%T)"; SKIP_SWEEP=1 ./run.sh jacobi3d4
echo "== recstep 22 $(date -u +%T)"; KS=22 ./repros.sh recstep
echo "== arraybound2 $(date -u +%T)"; ./repros.sh arraybound2
echo "== done $(date -u +%T)"
