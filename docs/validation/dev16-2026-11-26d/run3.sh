#!/bin/bash
# Third call on the lent 16-core machine (.dev carried as for run.sh, with
# predict and prediction.test built at the commit named in
# docs/validation.md): part A (two CPUs, P = 1, 2, 4, 8) and part B (16
# CPUs, P = 1, 2, 4, 8, 16) of run.sh again with fresh calibrations and
# profiles, then part B's real runs again with its profiles (B2) and the
# P = 1024 events benchmark on 16 CPUs while time is left. Results in
# $OUT/res3.tgz, rewritten after each step.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res3; mkdir -p $R/two $R/sixteen $R/sixteen2 $FINAL
save() { tar -C /tmp -czf $FINAL/res3.tgz.tmp res3 && mv $FINAL/res3.tgz.tmp $FINAL/res3.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
first=2; [ $(nproc) -lt 4 ] && first=0
TWO="$first,$((first + 1))"
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo); part A on cpus $TWO"; go version; uptime; date -u; } > $R/host.txt 2>&1
go build -o /tmp/heatb ./examples/heat || { echo "go build failed"; save; exit 4; }
echo "unpacked +$(el)s"
val() { # val DIR PROFDIR NPLIST EXAMPLE INTERVAL(- for none) ARGS... (prefix in $PRE)
  local dir=$1 prof=$2 np=$3 ex=$4 iv=$5; shift 5; local ivf=(); [ "$iv" != - ] && ivf=(--interval $iv)
  timeout -k 5 150 $PRE $P validate ./examples/$ex --np $np --reps 5 "${ivf[@]}" --quiet --json --machine $prof/local.yaml \
    --profile $prof/$ex.profile.json -- "$@" > $dir/$ex.json 2> $dir/$ex.err
  echo "$dir/$ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
PRE="taskset -c $TWO"
timeout -k 5 120 $PRE $P bench --quiet --out $R/two/local.yaml --report $R/two/bench.txt > $R/two/bench.log 2>&1; echo "A bench rc=$? +$(el)s"; save
for ex in heat matmul transpose mandelbrot cg; do val $R/two $R/two 1,2,4,8 $ex - -check=false; done
val $R/two $R/two 2,4,8 pingpong 1 -reps 200 -max 65536
PRE=""
timeout -k 5 120 $P bench --quiet --out $R/sixteen/local.yaml --report $R/sixteen/bench.txt > $R/sixteen/bench.log 2>&1; echo "B bench rc=$? +$(el)s"; save
for ex in heat matmul transpose mandelbrot cg; do val $R/sixteen $R/sixteen 1,2,4,8,16 $ex 1 -check=false; done
val $R/sixteen $R/sixteen 2,4,8,16 pingpong 1 -reps 200 -max 65536
for ex in heat matmul transpose mandelbrot cg; do [ $(el) -lt 250 ] && val $R/sixteen2 $R/sixteen 1,2,4,8,16 $ex 1 -check=false; done
if [ $(el) -lt 270 ]; then
  (cd prediction && timeout -k 5 40 /tmp/bins/prediction.test -test.run '^$' -test.bench 'HeatP1024' -test.benchtime 3x -test.short) > $R/sixteen/p1024.txt 2>&1
  echo "p1024 rc=$? +$(el)s"; save
fi
echo "total +$(el)s"; uptime
