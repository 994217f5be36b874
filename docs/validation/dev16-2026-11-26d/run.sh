#!/bin/bash
# On the lent 16-core machine, from the repository root, with .dev carried:
# .dev/gotrim.tar.xz (Go 1.26.8 without tests, docs and unused tools) and
# .dev/bins.tar.xz (predict, profiler.test, prediction.test built on the
# development machine at the commit named in docs/validation.md).
#
# Part A runs everything on two of the machine's CPUs (taskset; two that are
# not hyperthread siblings where the topology says so), the shape of the
# 2-core development VM but on an otherwise idle machine: predict bench,
# every example validated at P = 1, 2, 4, 8 as docs/validation/vm2-2026-11-23h/run.sh
# does, the profiler's overhead benchmark and the P = 1024 events benchmark.
# Part B calibrates and validates on all 16 CPUs at P = 1, 2, 4, 8, 16.
# Part C repeats part A's real runs with part A's profiles while time is left.
# Everything lands in $OUT/res.tgz, rewritten after each step.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res; mkdir -p $R/two $R/sixteen $R/two2 $FINAL
save() { tar -C /tmp -czf $FINAL/res.tgz.tmp res && mv $FINAL/res.tgz.tmp $FINAL/res.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
# Two CPUs: cpu 2 (0 on a smaller machine) and the first later one outside
# its sibling list.
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
val() { # val DIR MACHINE NPLIST EXAMPLE [INTERVAL] -- ARGS... (prefix in $PRE)
  local dir=$1 machine=$2 np=$3 ex=$4; shift 4; local iv=(); [ "$1" != -- ] && { iv=(--interval $1); shift; }; shift
  timeout -k 5 150 $PRE $P validate ./examples/$ex --np $np --reps 5 "${iv[@]}" --quiet --json --machine $machine \
    --profile $R/two/$ex.profile.json -- "$@" > $dir/$ex.json 2> $dir/$ex.err
  echo "$dir/$ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
# Part A: two CPUs.
PRE="taskset -c $TWO"
timeout -k 5 120 $PRE $P bench --quiet --out $R/two/local.yaml --report $R/two/bench.txt > $R/two/bench.log 2>&1; echo "A bench rc=$? +$(el)s"; save
for ex in heat matmul transpose mandelbrot cg; do val $R/two $R/two/local.yaml 1,2,4,8 $ex -- -check=false; done
val $R/two $R/two/local.yaml 2,4,8 pingpong 1 -- -reps 200 -max 65536
(cd profiler && timeout -k 5 170 $PRE /tmp/bins/profiler.test -test.run '^$' -test.bench 'Overhead/' -test.benchtime 5x) > $R/two/overhead.txt 2>&1
echo "A overhead rc=$? +$(el)s"; save
(cd prediction && timeout -k 5 60 $PRE /tmp/bins/prediction.test -test.run '^$' -test.bench 'HeatP1024' -test.benchtime 3x -test.count 2 -test.short) > $R/two/p1024.txt 2>&1
echo "A p1024 rc=$? +$(el)s"; save
# Part B: all sixteen CPUs, fresh profiles.
PRE=""
timeout -k 5 120 $P bench --quiet --out $R/sixteen/local.yaml --report $R/sixteen/bench.txt > $R/sixteen/bench.log 2>&1; echo "B bench rc=$? +$(el)s"; save
valB() { local ex=$1 np=$2; shift 2
  timeout -k 5 150 $P validate ./examples/$ex --np $np --reps 5 --interval 1 --quiet --json --machine $R/sixteen/local.yaml \
    --profile $R/sixteen/$ex.profile.json -- "$@" > $R/sixteen/$ex.json 2> $R/sixteen/$ex.err
  echo "B $ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
for ex in heat matmul transpose mandelbrot cg; do [ $(el) -lt 470 ] && valB $ex 1,2,4,8,16 -check=false; done
[ $(el) -lt 470 ] && valB pingpong 2,4,8,16 -reps 200 -max 65536
# Part C: part A again (its profiles and machine file, new real runs).
PRE="taskset -c $TWO"
for ex in heat matmul transpose mandelbrot cg; do [ $(el) -lt 480 ] && val $R/two2 $R/two/local.yaml 1,2,4,8 $ex -- -check=false; done
echo "total +$(el)s"; uptime
