#!/bin/bash
# Second call on the lent 16-core machine (.dev carried as for run.sh): the
# examples run by hand with -mpitrace (every rank's MPI calls with their
# times) and GODEBUG=gctrace=1, three runs per configuration, to see where
# the real runs spend the time that part B of run.sh did not predict
# (matmul at 4-16 ranks, transpose at 16), and heat at 2 ranks on two CPUs
# (part A). Also matmul with the collector off. Results in $OUT/traces.tgz.
set -u
FINAL=${OUT:-/tmp/valout}; R=/tmp/tr; mkdir -p $R $FINAL
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
tar -C /tmp -xJf .dev/gotrim.tar.xz || exit 3
export PATH=/tmp/go/bin:$PATH GOROOT=/tmp/go GOCACHE=/tmp/gocache GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 GOTOOLCHAIN=local
for ex in matmul transpose heat cg; do go build -o /tmp/$ex ./examples/$ex || exit 4; done
echo "built +$(el)s"
one() { # one NAME PREFIX... -- BINARY ARGS...
  local name=$1; shift; local pre=(); while [ "$1" != -- ]; do pre+=("$1"); shift; done; shift
  for i in 1 2 3; do
    env GODEBUG=gctrace=1 "${pre[@]}" "$@" -mpitrace $R/$name-$i.trace.json > $R/$name-$i.out 2> $R/$name-$i.gc
  done
}
for p in 1 2 4 8 16; do one mm$p -- /tmp/matmul -np $p -check=false; done
for p in 4 16; do one mmnogc$p GOGC=off -- /tmp/matmul -np $p -check=false; done
for p in 1 8 16; do one tr$p -- /tmp/transpose -np $p -check=false; done
for p in 4 8; do one cg$p -- /tmp/cg -np $p -check=false; done
for p in 1 2; do one heat2c$p taskset -c 2,3 -- /tmp/heat -np $p -check=false; done
echo "runs +$(el)s"; uptime
tar -C /tmp -czf $FINAL/traces.tgz tr; ls -la $FINAL
