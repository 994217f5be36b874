#!/bin/bash
# repros.sh: the repro modules' commands, each under the timing lock; outputs in repro-*/out/.
P=/tmp/predictK; M=/work/main/docs/validation/vm9-2026-11-27h/local.yaml
here=$(cd $(dirname $0) && pwd)
L() { flock /tmp/parpredict-timing.lock "$@"; }
t() { local s=$(date +%s.%N); "$@"; echo "rc=$? wall $(echo "$(date +%s.%N) - $s" | bc) s"; }
case $1 in
arrayfield)
  cd $here/repro-arrayfield && mkdir -p out
  for s in false true; do
    t L timeout 600 $P validate . --np 1,2,4 --reps 3 --machine $M --profile out/v-$s.json -- -swap=$s > out/validate-swap$s.txt 2>&1
  done ;;
arraybound)
  cd $here/repro-arraybound && mkdir -p out
  for loc in false true; do for n in 100000 200000; do
    echo "== -local=$loc -n $n"
    t L timeout 600 $P speedup . --np 1,2 --machine $M --profile out/p-$loc-$n.json -- -local=$loc -n $n -steps 20 > out/speedup-$loc-$n.txt 2>&1
  done; done ;;
arraybound2)
  cd $here/repro-arraybound && mkdir -p out
  for n in 100000 400000; do
    echo "== -rows 100 -n $n"
    t L timeout 600 $P speedup . --np 1,2 --machine $M --profile out/p2-$n.json -- -rows 100 -n $n -steps 20 > out/speedup2-$n.txt 2>&1
  done ;;
recstep)
  cd $here/repro-recstep && mkdir -p out && go build -o /tmp/K-rec .
  for k in ${KS:-14 16 18}; do
    echo "== -k $k"; t L /tmp/K-rec -k $k; t L /tmp/K-rec -np 2 -k $k
    t L timeout 600 $P speedup . --np 1,2 --machine $M --profile out/p-$k.json -- -k $k > out/speedup-$k.txt 2>&1
  done ;;
arrayresult)
  cd $here/repro-arrayresult && mkdir -p out
  t L timeout 600 $P speedup . --np 1,2,4 --machine $M --profile out/p.json > out/speedup.txt 2>&1
  t L timeout 600 $P speedup . --np 1,2,4 --machine $M --profile out/p-ints.json -- -ints > out/speedup-ints.txt 2>&1
  t L timeout 600 $P validate . --np 1,2,4 --reps 3 --machine $M --profile out/v.json > out/validate.txt 2>&1 ;;
nqueens)
  cd $here/nqueens && mkdir -p $here/nqueens-vm
  for n in 11 12; do
    t L timeout 600 $P validate . --np 1,2,4,8 --reps 3 --machine $M --profile $here/nqueens-vm/v$n.json -- -n $n -check=false > $here/nqueens-vm/validate-n$n.txt 2>&1
  done
  t L timeout 600 $P speedup . --np 1:64 --profile $here/nqueens-vm/s11.json -- -n 11 > $here/nqueens-vm/speedup-n11.txt 2>&1 ;;
esac
