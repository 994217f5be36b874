#!/bin/bash
# Device validation: unpack a trimmed Go and our binaries, calibrate,
# validate the examples.
# usage: val.sh NPLIST REPS EXAMPLES... ; ARGS_<ex> overrides program args,
# BENCH (flags) runs predict bench first, GOBENCH runs the test benchmarks.
set -u
NP=$1; REPS=$2; shift 2
FINAL=${OUT:-/tmp/valout}; OUT=/tmp/res; mkdir -p $OUT $FINAL
save() { tar -C /tmp -czf $FINAL/res.tgz.tmp res && mv $FINAL/res.tgz.tmp $FINAL/res.tgz; }
T0=$(date +%s)
el() { echo "+$(( $(date +%s)-T0 ))s"; }
if [ ! -x /tmp/go/bin/go ]; then tar -C /tmp -xJf .dev/gotrim.tar.xz; fi
mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
P=/tmp/bins/predict
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; free -g | head -2; go version; uptime; date -u; } | tee $OUT/host.txt
if [ -n "${BENCH:-}" ]; then
  $P bench $BENCH --quiet --report $OUT/bench.txt > $OUT/bench.log 2>&1; echo "bench rc=$? $(el)"; save
  cp machines/local.yaml $OUT/local.yaml
fi
if [ -n "${GOBENCH:-}" ]; then
  (cd profiler && /tmp/bins/profiler.test -test.run '^$' -test.bench Overhead -test.benchtime ${GOBENCH}x) 2>&1 | tee $OUT/overhead.txt; echo "overhead $(el)"; save
  (cd prediction && /tmp/bins/prediction.test -test.run '^$' -test.bench HeatP1024 -test.benchtime 3x -test.count 3) 2>&1 | tee $OUT/p1024.txt; echo "p1024 $(el)"; save
fi
if [ -n "${DIAG:-}" ]; then
  go build -o /tmp/heatb ./examples/heat && for i in 1 2 3; do
    for np in 1 2; do echo "np=$np plain: $(/tmp/heatb -np $np -check=false | tail -1)"; echo "np=$np traced: $(PARPREDICT_TRACE_INTERVALS=1 /tmp/heatb -np $np -check=false -mpitrace /tmp/tr.json | tail -1)"; echo "np=$np maxprocs2: $(GOMAXPROCS=2 /tmp/heatb -np $np -check=false | tail -1)"; done
  done 2>&1 | tee $OUT/diag.txt; save
fi
for ex in "$@"; do
  v=ARGS${TAG:-}_$ex; args=${!v:--check=false}; iv=1; np=$NP
  [ $ex = pingpong ] && iv=0 && np=${NP#1,}
  echo "== $ex ($args) np=$np at $(el)"
  f=$ex${TAG:-}; rm -f /tmp/$f.profile.json
  $P validate ./examples/$ex --np $np --reps $REPS --interval $iv --quiet --json --profile /tmp/$f.profile.json -- $args > $OUT/$f.json 2> $OUT/$f.err
  echo "rc=$?"; tail -3 $OUT/$f.err; cp /tmp/$f.profile.json $OUT/ 2>/dev/null; save
done
echo "total $(el)"
