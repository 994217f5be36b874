#!/bin/sh
# run.sh NAME: every timed command for program NAME, each under the timing
# lock; outputs in NAME-vm/. Profiles in /tmp/Q-NAME*.profile.json.
name=$1
P=/tmp/predictQ
L="flock /tmp/parpredict-timing.lock timeout 900"
cd "$(dirname "$0")/$name" || exit 1
o=../$name-vm
s() { f=$1; shift; { date -u; uptime; echo "+ $*"; $L "$@"; echo "rc=$?"; date -u; uptime; } > "$o/$f" 2>&1; }
go build -o /tmp/Q-$name.bin . || exit 1
s real.txt sh -c "for p in 1 2 4 8; do /tmp/Q-$name.bin -np \$p; done"
s speedup.txt $P speedup . --np 1:32 --quiet --profile /tmp/Q-$name.profile.json
s speedup-at8.txt $P speedup . --np 1,2,4,8 --quiet --profile /tmp/Q-$name.profile.json --at 8
s validate.txt $P validate . --np 1,2,4,8 --reps 3 --quiet --profile /tmp/Q-$name-v.profile.json -- -check=false
rm -f ./*.profile.json
