cd .dev  # heatb, cgb and tracestat were built on the development machine and carried
for i in 1 2; do for np in 1 2 4 8 16; do
  echo "heat np=$np $(./heatb -np $np -n 1024 -steps 300 -check=false -mpitrace /tmp/t.json | tail -1)"; ./tracestat /tmp/t.json | awk '{c+=$4; m+=$6; if ($4>mc) mc=$4; if ($6>mm) mm=$6} END {printf "  mean compute %.4f max compute %.4f mean mpi %.4f max mpi %.4f\n", c/NR, mc, m/NR, mm}'
  echo "heatplain np=$np $(./heatb -np $np -n 1024 -steps 300 -check=false | tail -1)"
done; done
for np in 1 2 4 8 16; do
  echo "cg np=$np $(./cgb -np $np -n 512 -maxit 200 -check=false -mpitrace /tmp/t.json | tail -1)"; ./tracestat /tmp/t.json | awk '{c+=$4; m+=$6; if ($4>mc) mc=$4; if ($6>mm) mm=$6} END {printf "  mean compute %.4f max compute %.4f mean mpi %.4f max mpi %.4f\n", c/NR, mc, m/NR, mm}'
done
