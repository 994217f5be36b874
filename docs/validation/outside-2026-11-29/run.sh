#!/bin/sh
# run.sh NAME: every timed command for program NAME, in order, each under the
# timing lock; outputs in NAME-vm/. Profiles in /tmp/O-NAME*.profile.json.
# FIRST=1: also the default-args sweep first (spmv's was run by hand).
# SMALL: the --profile-args size for "profile small, predict big".
name=$1; small=$2
M=/tmp/ppO/docs/validation/vm13-2026-11-28e/local.yaml
P=/tmp/predictO
L="flock /tmp/parpredict-timing.lock timeout 900"
cd "$(dirname "$0")/$name" || exit 1
o=../$name-vm
s() { f=$1; shift; { date -u; uptime; echo "+ $*"; $L "$@"; echo "rc=$?"; date -u; } > "$o/$f" 2>&1; }
[ -n "$FIRST" ] && s speedup.txt $P speedup . --np 1:32 --profile-ppn 1,2,4,8 --profile /tmp/O-$name.profile.json --at 8
s speedup-nocheck.txt $P speedup . --np 1:32 --profile-ppn 1,2,4,8 --profile /tmp/O-$name-nc.profile.json --at 8 -- -check=false
s ppn12.txt $P speedup . --np 12 --ppn 1,6,12 --profile /tmp/O-$name.profile.json --at 12
s ppn12-nocheck.txt $P speedup . --np 12 --ppn 1,6,12 --profile /tmp/O-$name-nc.profile.json -- -check=false
s validate-default.txt $P validate . --np 1,2,4,8 --reps 3 --quiet --machine $M -- -check=false
s profile.txt $P profile . --ppn 1,2,4,8 -o /tmp/O-$name-p.profile.json -- -check=false
s validate-profile.txt $P validate . --np 1,2,4,8 --reps 3 --quiet --machine $M --profile /tmp/O-$name-p.profile.json -- -check=false
s local-at8.txt $P speedup . --machine $M --np 1,2,4,8 --ppn 8 --oversubscribe --profile /tmp/O-$name-p.profile.json --at 8 -- -check=false
s small-big.txt $P speedup . --machine $M --np 1,2,4,8 --ppn 8 --oversubscribe --profile-ppn 1,2,4,8 --profile /tmp/O-$name-small.profile.json --profile-args "$small -check=false" -- -check=false
rm -f ./*.profile.json
