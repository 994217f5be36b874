#!/bin/bash
# On the lent 16-core machine, from the repository root, with .dev carried
# (gotrim.tar.xz made by ../dev16-2026-11-26d/make-dev.sh; bins.tar.xz the
# same binaries built with -ldflags='-s -w' at the commit named in
# docs/validation.md, to fit the transfer; data.tar.xz the data.txt of
# outside-2026-11-26/lines and scatter, generated as that folder's README
# says).
#
# Part A: two of the machine's CPUs (taskset; not hyperthread siblings),
# the shape of the 2-core development VM on an otherwise idle machine:
# predict bench, every example validated at P = 1, 2, 4, 8 as
# docs/validation/vm2-2026-11-23h/run.sh does.
# Part B: all 16 CPUs, fresh calibration and profiles, P = 1, 2, 4, 8, 16.
# Part D: the programs written outside the repository
# (docs/validation/outside-2026-11-26), all 16 CPUs, P = 1..16, part B's
# machine file.
# Then, while time is left: the profiler's overhead benchmark and the
# P = 1024 events benchmark on the two CPUs.
# Everything lands in $OUT/res.tgz, rewritten after each step.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res; mkdir -p $R/two $R/sixteen $R/outside $FINAL
save() { tar -C /tmp -czf $FINAL/res.tgz.tmp res && mv $FINAL/res.tgz.tmp $FINAL/res.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz &&
  tar -C docs/validation/outside-2026-11-26 -xJf .dev/data.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
first=2; [ $(nproc) -lt 4 ] && first=0
sib=$(cat /sys/devices/system/cpu/cpu$first/topology/thread_siblings_list 2>/dev/null || echo $first)
second=$((first + 1)); for c in $(seq $((first + 1)) $(( $(nproc) - 1 ))); do
  if ! echo ",$sib," | tr '-' ',' | grep -q ",$c,"; then second=$c; break; fi
done
TWO="$first,$second"
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; echo "cpu$first siblings: $sib; part A on cpus $TWO"
  lscpu | grep -E 'Thread|Core|Socket|NUMA|MHz|L[123]'; free -g | head -2; go version; uptime; date -u; } > $R/host.txt 2>&1
go build -o /tmp/heatb ./examples/heat || { echo "go build failed"; save; exit 4; }
echo "unpacked, $TWO, +$(el)s"
# Part A: two CPUs.
PRE="taskset -c $TWO"
valA() { local ex=$1 np=$2; shift 2
  timeout -k 5 150 $PRE $P validate ./examples/$ex --np $np --reps 5 --quiet --json --machine $R/two/local.yaml \
    --profile $R/two/$ex.profile.json "$@" > $R/two/$ex.json 2> $R/two/$ex.err
  echo "A $ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
timeout -k 5 120 $PRE $P bench --quiet --out $R/two/local.yaml --report $R/two/bench.txt > $R/two/bench.log 2>&1; echo "A bench rc=$? +$(el)s"; save
for ex in heat matmul transpose mandelbrot cg; do valA $ex 1,2,4,8 -- -check=false; done
valA pingpong 2,4,8 --interval 1 -- -reps 200 -max 65536
# Part B: all sixteen CPUs.
PRE=""
timeout -k 5 120 $P bench --quiet --out $R/sixteen/local.yaml --report $R/sixteen/bench.txt > $R/sixteen/bench.log 2>&1; echo "B bench rc=$? +$(el)s"; save
valB() { local ex=$1 np=$2; shift 2
  timeout -k 5 150 $P validate ./examples/$ex --np $np --reps 5 --interval 1 --quiet --json --machine $R/sixteen/local.yaml \
    --profile $R/sixteen/$ex.profile.json -- "$@" > $R/sixteen/$ex.json 2> $R/sixteen/$ex.err
  echo "B $ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
for ex in heat matmul transpose mandelbrot cg; do valB $ex 1,2,4,8,16 -check=false; done
valB pingpong 2,4,8,16 -reps 200 -max 65536
# Part D: the outside programs on all sixteen CPUs.
O=docs/validation/outside-2026-11-26
valD() { local name=$1 dir=$2 pkg=$3; shift 3
  [ $(el) -lt 420 ] || return
  (cd $O/$dir && timeout -k 5 120 $P validate $pkg --np 1,2,4,8,16 --reps 5 --quiet --json --machine $R/sixteen/local.yaml \
    --profile $R/outside/$name.profile.json "$@" > $R/outside/$name.json 2> $R/outside/$name.err)
  echo "D $name rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
valD farm farm ./cmd/farm --interval 0
valD farm2 farm ./cmd/farm2
valD psort psort ./cmd/psort
valD wave wave ./cmd/wave
valD wc wc ./cmd/wc
valD hqs hqs ./cmd/hqs
valD solver solver ./cmd/solver
valD lines lines .
valD scatter scatter .
# While time is left: the profiler's overhead and the events benchmark on the two CPUs.
PRE="taskset -c $TWO"
[ $(el) -lt 430 ] && { (cd profiler && timeout -k 5 90 $PRE /tmp/bins/profiler.test -test.run '^$' -test.bench 'Overhead/' -test.benchtime 3x) > $R/two/overhead.txt 2>&1
  echo "A overhead rc=$? +$(el)s"; save; }
[ $(el) -lt 500 ] && { (cd prediction && timeout -k 5 40 $PRE /tmp/bins/prediction.test -test.run '^$' -test.bench 'HeatP1024' -test.benchtime 3x -test.short) > $R/two/p1024.txt 2>&1
  echo "A p1024 rc=$? +$(el)s"; save; }
echo "total +$(el)s"; uptime
