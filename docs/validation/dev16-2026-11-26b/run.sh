#!/bin/bash
# On the lent 16-core machine, from the repository root, with .dev carried:
# .dev/gotrim.tar.xz (Go 1.26.8 without tests, docs and unused tools) and
# .dev/bins.tar.xz (predict built on the development machine at the
# commit named in docs/validation.md). Calibrates this machine (predict
# bench), validates every example at P = 1, 2, 4, 8, 16 (pingpong 2..16)
# at the default sizes with -check=false over the main loop (interval 1),
# cg and heat with all their default arguments over the whole run, then
# the larger sizes while time is left. Everything lands in $OUT/res.tgz,
# rewritten after each step.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res; mkdir -p $R $FINAL
save() { tar -C /tmp -czf $FINAL/res.tgz.tmp res && mv $FINAL/res.tgz.tmp $FINAL/res.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; free -g | head -2; go version; uptime; date -u; } | tee $R/host.txt
go build -o /tmp/heatb ./examples/heat || { echo "go build failed"; save; exit 4; }
echo "unpacked and built at +$(el)s"
timeout -k 5 150 $P bench --quiet --report $R/bench.txt > $R/bench.log 2>&1; echo "bench rc=$? +$(el)s"
cp machines/local.yaml $R/local.yaml; save
val() { # val NAME EXAMPLE NPLIST INTERVAL ARGS... (INTERVAL 0: the whole run)
  local name=$1 ex=$2 np=$3 iv=$4; shift 4
  local ivflag="--interval $iv"; [ "$iv" = 0 ] && ivflag=""
  timeout -k 5 150 $P validate ./examples/$ex --np $np --reps 5 $ivflag --quiet --json --machine local \
    --profile $R/$name.profile.json -- "$@" > $R/$name.json 2> $R/$name.err
  echo "$name rc=$? +$(el)s $(uptime | sed 's/.*load/load/')"; save
}
for ex in heat matmul transpose mandelbrot cg; do val $ex $ex 1,2,4,8,16 1 -check=false; done
val pingpong pingpong 2,4,8,16 1 -reps 200 -max 65536
val cg_defaults cg 1,2,4,8,16 0
val heat_defaults heat 1,2,4,8,16 0
big() { [ $(el) -lt 440 ] && val "$@"; }
big mandelbrot_big mandelbrot 1,2,4,8,16 1 -width 1024 -height 1024 -check=false
big matmul_big matmul 1,2,4,8,16 1 -n 800 -check=false
big cg_big cg 1,2,4,8,16 1 -n 512 -maxit 200 -check=false
big heat_big heat 1,2,4,8,16 1 -n 1024 -steps 300 -check=false
big transpose_big transpose 1,2,4,8,16 1 -n 2048 -reps 10 -check=false
echo "total +$(el)s"; uptime
