#!/bin/sh
# run.sh NAME: every timed command for program NAME, each under the timing
# lock; outputs in NAME-vm/. Profiles in /tmp/P-NAME*.profile.json.
name=$1
P=/tmp/predictP
L="flock /tmp/parpredict-timing.lock timeout 900"
cd "$(dirname "$0")/$name" || exit 1
o=../$name-vm
s() { f=$1; shift; { date -u; uptime; echo "+ $*"; $L "$@"; echo "rc=$?"; date -u; uptime; } > "$o/$f" 2>&1; }
s real.txt sh -c 'for p in 1 2 4 8; do go run . -np $p; done'
s speedup.txt $P speedup . --np 1:32 --quiet --profile /tmp/P-$name.profile.json
s speedup-at8.txt $P speedup . --np 1,2,4,8 --quiet --profile /tmp/P-$name.profile.json --at 8
s validate.txt $P validate . --np 1,2,4,8 --reps 3 --quiet --profile /tmp/P-$name-v.profile.json -- -check=false
rm -f ./*.profile.json
