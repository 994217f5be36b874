#!/bin/bash
# checks.sh NAME [ARGS...]: real runs with -check at P = 1, 2, 3, 4, 8, under the timing lock.
here=$(cd $(dirname $0) && pwd); name=$1; shift
cd $here/$name && go build -o /tmp/K-$name . || exit 1
for p in 1 2 3 4 8; do
  echo "== -np $p $*"; flock /tmp/parpredict-timing.lock /tmp/K-$name -np $p "$@" 2>&1 | tail -3
done
