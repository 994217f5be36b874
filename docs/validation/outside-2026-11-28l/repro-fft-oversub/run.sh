#!/bin/bash
# fault 3: fft2d at P = 8 (8 ranks on 2 cores) predicted too long; the same program
# with a grid that is cache-resident at every P (n 128) as a control.
L=/work/main/docs/validation/vm13-2026-11-28e/local.yaml
cd /tmp/ppL/docs/validation/outside-2026-11-28l/fft2d
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL validate . --np 1,8 --reps 3 --machine $L --profile /tmp/reproL-fft512.profile.json -- -n 512 -reps 4 -check=false > ../repro-fft-oversub/out-n512.txt 2>&1
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL validate . --np 1,8 --reps 3 --machine $L --profile /tmp/reproL-fft128.profile.json -- -n 128 -reps 150 -check=false > ../repro-fft-oversub/out-n128.txt 2>&1
echo done
