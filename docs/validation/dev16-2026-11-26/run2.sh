#!/bin/bash
# Second call on the lent 16-core machine (same session, a fresh boot):
# the machine's topology, heat's serial run pinned and unpinned, and
# mandelbrot validated again with predict built at the commit named in
# docs/validation.md. .dev carries the trimmed Go and bins.tar.xz
# (predict, heatb = examples/heat built plain).
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/res; mkdir -p $R $FINAL
save() { tar -C /tmp -czf $FINAL/res2.tgz.tmp res && mv $FINAL/res2.tgz.tmp $FINAL/res2.tgz; }
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz && mkdir -p /tmp/bins && tar -C /tmp/bins -xJf .dev/bins.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
{ echo "host: $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo)"; uptime; date -u
  lscpu; for n in /sys/devices/system/node/node*; do echo "$n: cpus $(cat $n/cpulist)"; done
  echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"; } > $R/topology.txt 2>&1
H=/tmp/bins/heatb
{ for i in 1 2 3 4 5 6; do
    echo "unpinned: $($H -np 1 -check=false | tail -1)"
    echo "cpu0: $(taskset -c 0 $H -np 1 -check=false | tail -1)"
    echo "cpu0-1: $(taskset -c 0,1 $H -np 1 -check=false | tail -1)"
    echo "gomaxprocs1: $(GOMAXPROCS=1 $H -np 1 -check=false | tail -1)"
    echo "np2: $($H -np 2 -check=false | tail -1)"
    echo "np2-cpu0-3: $(taskset -c 0-3 $H -np 2 -check=false | tail -1)"
  done; } > $R/heat-pinning.txt 2>&1
echo "pinning +$(el)s"; save
cp docs/validation/dev16-2026-11-26/local.yaml machines/local.yaml
for v in "mandelbrot -check=false" "mandelbrot_big -width 1024 -height 1024 -check=false"; do
  set -- $v; name=$1; shift
  timeout -k 5 120 /tmp/bins/predict validate ./examples/mandelbrot --np 1,2,4,8,16 --reps 5 --quiet --json --machine local \
    --profile docs/validation/dev16-2026-11-26/$name.profile.json -- "$@" > $R/$name.json 2> $R/$name.err
  echo "$name rc=$? +$(el)s"; save
done
echo "total +$(el)s"
