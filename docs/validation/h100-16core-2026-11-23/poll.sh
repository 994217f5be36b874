cd .dev  # heat_N, cg_N (built with pollWait = N us) and tracestat built on the development machine and carried
st() { ./tracestat /tmp/t.json | awk '{c+=$4; m+=$6; if ($4>mc) mc=$4} END {printf " compute mean %.3f max %.3f mpi mean %.3f\n", c/NR, mc, m/NR}'; }
for rep in 1 2; do for np in 2 8 16; do for pw in 100 1000 10000; do
  echo -n "heat np=$np pw=$pw $(./heat_$pw -np $np -n 1024 -steps 300 -check=false -mpitrace /tmp/t.json | tail -1)"; st
  echo -n "cg np=$np pw=$pw $(./cg_$pw -np $np -n 512 -maxit 200 -check=false -mpitrace /tmp/t.json | tail -1)"; st
done; done; done
