#!/bin/sh
# repro-solo-setup: a region only rank 0 runs (the setup) gets the contention
# runs' ratio at k ranks; 8x1 vs 1x8 on ib-qdr (under the lock)
cd "$(dirname "$0")" || exit 1
L="flock /tmp/parpredict-timing.lock"
{
date -u; uptime
$L go run . -np 1
$L /tmp/predictO speedup . --np 8 --ppn 1,8 --at 8 --profile-ppn 1,2,4,8 --profile /tmp/O-repro-solo.profile.json
python3 -c "
import json
c=json.load(open('/tmp/O-repro-solo.profile.json'))['contention']
print('contention ppn', c['ppn'], 'total', [round(x,3) for x in c['total']])
for k,v in c['regions'].items():
    if 'loop' in k: print(' ', k, [round(x,3) for x in v])
"
$L /tmp/predictO speedup . --np 8 --ppn 1,8 --profile /tmp/O-repro-solo-nosetup.profile.json --profile-ppn 1,2,4,8 -- -setup=false
} > out.txt 2>&1
