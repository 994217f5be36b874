#!/bin/bash
# Second call on the lent 16-core machine (a fresh boot), with .dev carried
# as run.sh says (bins.tar.xz built at the commit named in
# docs/validation.md). Part E: predict bench on all 16 CPUs, then the nine
# programs written outside the repository validated at P = 1..16 with
# profiles made by this commit (their contention runs keep the lengths of
# library calls), and hqs again profiled at two ranks (--np 2,4,8,16).
# Part F: part A of run.sh again (two CPUs, the examples at P = 1, 2, 4, 8).
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res2; mkdir -p $R/sixteen $R/outside $R/two $FINAL
save() { tar -C /tmp -czf $FINAL/res2.tgz.tmp res2 && mv $FINAL/res2.tgz.tmp $FINAL/res2.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz &&
  tar -C docs/validation/outside-2026-11-26 -xJf .dev/data.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; uptime; date -u; } > $R/host.txt 2>&1
go build -o /tmp/heatb ./examples/heat || { echo "go build failed"; save; exit 4; }
echo "unpacked +$(el)s"
timeout -k 5 120 $P bench --quiet --out $R/sixteen/local.yaml --report $R/sixteen/bench.txt > $R/sixteen/bench.log 2>&1; echo "E bench rc=$? +$(el)s"; save
O=docs/validation/outside-2026-11-26
valE() { local name=$1 dir=$2 pkg=$3 np=$4; shift 4
  [ $(el) -lt 300 ] || return
  (cd $O/$dir && timeout -k 5 120 $P validate $pkg --np $np --reps 5 --quiet --json --machine $R/sixteen/local.yaml \
    --profile $R/outside/$name.profile.json "$@" > $R/outside/$name.json 2> $R/outside/$name.err)
  echo "E $name rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
valE psort psort ./cmd/psort 1,2,4,8,16
valE hqs2 hqs ./cmd/hqs 2,4,8,16
valE farm farm ./cmd/farm 1,2,4,8,16 --interval 0
valE farm2 farm ./cmd/farm2 1,2,4,8,16
valE wave wave ./cmd/wave 1,2,4,8,16
valE wc wc ./cmd/wc 1,2,4,8,16
valE hqs hqs ./cmd/hqs 1,2,4,8,16
valE solver solver ./cmd/solver 1,2,4,8,16
valE lines lines . 1,2,4,8,16
valE scatter scatter . 1,2,4,8,16
# Part F: two CPUs.
first=2; sib=$(cat /sys/devices/system/cpu/cpu$first/topology/thread_siblings_list 2>/dev/null || echo $first)
second=3; for c in $(seq 3 $(( $(nproc) - 1 ))); do
  if ! echo ",$sib," | tr '-' ',' | grep -q ",$c,"; then second=$c; break; fi
done
PRE="taskset -c $first,$second"
valF() { local ex=$1 np=$2; shift 2
  [ $(el) -lt 380 ] || return
  timeout -k 5 100 $PRE $P validate ./examples/$ex --np $np --reps 5 --quiet --json --machine $R/two/local.yaml \
    --profile $R/two/$ex.profile.json "$@" > $R/two/$ex.json 2> $R/two/$ex.err
  echo "F $ex rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
timeout -k 5 60 $PRE $P bench --quiet --out $R/two/local.yaml --report $R/two/bench.txt > $R/two/bench.log 2>&1; echo "F bench rc=$? +$(el)s"; save
for ex in heat matmul transpose mandelbrot cg; do valF $ex 1,2,4,8 -- -check=false; done
valF pingpong 2,4,8 --interval 1 -- -reps 200 -max 65536
echo "total +$(el)s"; uptime
