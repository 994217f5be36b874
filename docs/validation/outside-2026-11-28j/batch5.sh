#!/bin/bash
# batch5.sh (queued 00:46 UTC): whole-run (interval 0) actual times at the big sizes, to compare with the profile-args speedup rows (whole runs).
P=/tmp/predictJ; M=/work/main/docs/validation/vm9-2026-11-27h/local.yaml
here=$(cd $(dirname $0) && pwd)
L="flock /tmp/parpredict-timing.lock"
cd $here/summa
$L timeout 600 $P validate . --np 1,2 --reps 3 --interval 0 --machine $M --profile ../summa-vm/big.profile.json -- -n 1100 -check=false > ../summa-vm/profargs-validate-big-whole.txt 2>&1; echo "summa whole rc=$? $(date -u +%T)"
cd $here/sieve
$L timeout 600 $P validate . --np 1,2 --reps 3 --interval 0 --machine $M --profile ../sieve-vm/big.profile.json -- -N 300000000 -check=false > ../sieve-vm/profargs-validate-big-whole.txt 2>&1; echo "sieve whole rc=$? $(date -u +%T)"
