#!/bin/sh
# predicted serial fraction of a master-worker split, without and with a
# serial tail on rank 0 (ib-qdr preset)
cd "$(dirname "$0")"
P=${PREDICT:-/tmp/predictP}
$P speedup . --np 1,2,4,8,16 --quiet --profile /tmp/P-repro-sf.profile.json
$P speedup . --np 1,2,4,8,16 --quiet --profile /tmp/P-repro-sf-tail.profile.json -- -tail
