#!/bin/bash
# Third call on the lent 16-core machine (a fresh boot), with .dev carried
# as for ../dev16-2026-11-26b (predict built at the commit named in
# docs/validation.md): predict bench with the lockstep table's new rank
# counts (2, 4, 8, 16, 32, 64), then cg and heat validated at P = 1, 2, 4,
# 8, 16 with -check=false and with their default arguments (interval 1,
# fresh profiles). Results in $OUT/res.tgz, rewritten after each step.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res; mkdir -p $R $FINAL
save() { tar -C /tmp -czf $FINAL/res.tgz.tmp res && mv $FINAL/res.tgz.tmp $FINAL/res.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; go version; uptime; date -u; } | tee $R/host.txt
timeout -k 5 100 $P bench --quiet --report $R/bench.txt > $R/bench.log 2>&1; echo "bench rc=$? +$(el)s"
cp machines/local.yaml $R/local.yaml; save
val() { # val NAME EXAMPLE ARGS...
  local name=$1 ex=$2; shift 2
  timeout -k 5 120 $P validate ./examples/$ex --np 1,2,4,8,16 --reps 5 --interval 1 --quiet --json --machine local \
    --profile $R/$name.profile.json -- "$@" > $R/$name.json 2> $R/$name.err
  echo "$name rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
val cg cg -check=false
val cg_defaults cg
val heat heat -check=false
val heat_defaults heat
echo "total +$(el)s"
