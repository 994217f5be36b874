#!/bin/bash
# run.sh RESULTS PROFILES MACHINE (absolute paths): validate the outside programs of ../../outside-2026-11-26 with $PRED (a predict binary); profiles made in PROFILES if missing
set -u
out=$1; prof=$2; machine=$3; mkdir -p "$out" "$prof"
base=$(cd "$(dirname "$0")/../../outside-2026-11-26" && pwd)
run() {
  local name=$1 dir=$2 pkg=$3; shift 3
  (cd "$base/$dir" && $PRED validate "$pkg" --reps 5 --quiet --json --machine "$machine" --profile "$prof/$name.profile.json" "$@" > "$out/$name.json" 2> "$out/$name.err")
  echo "$name rc=$? $(date -u +%T)"
}
run farm farm ./cmd/farm --interval 0 --np 1,2,4
run farm2 farm ./cmd/farm2 --np 1,2,4,8
run psort psort ./cmd/psort --np 1,2,4,8
run wave wave ./cmd/wave --np 1,2,4,8
run wc wc ./cmd/wc --np 1,2,4,8
run hqs hqs ./cmd/hqs --np 1,2,4,8
run solver solver ./cmd/solver --np 1,2,4,8
run lines lines . --np 1,2,4,8
run scatter scatter . --np 1,2,4,8
