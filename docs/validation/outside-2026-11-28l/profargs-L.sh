#!/bin/bash
# step d: profile small, predict big (local.yaml, P = 1, 2), then validate at the big size
L=/work/main/docs/validation/vm13-2026-11-28e/local.yaml
cd /tmp/ppL/docs/validation/outside-2026-11-28l/kmeans
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL speedup . --machine $L --np 1,2 --profile ../kmeans-vm/profargs.profile.json --profile-args="-n 30000 -check=false" -- -n 240000 -check=false > ../kmeans-vm/profargs.txt 2>&1
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL validate . --machine $L --np 1,2 --reps 3 --profile ../kmeans-vm/big.profile.json -- -n 240000 -check=false > ../kmeans-vm/validate-big.txt 2>&1
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL speedup . --np 1:64 --profile ../kmeans-vm/profargs-ib.profile.json --profile-args="-n 30000 -check=false" -- -n 240000 -check=false > ../kmeans-vm/profargs-ib.txt 2>&1
cd ../fft2d
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL speedup . --machine $L --np 1,2 --profile ../fft2d-vm/profargs.profile.json --profile-args="-n 256 -reps 4 -check=false" -- -n 1024 -reps 4 -check=false > ../fft2d-vm/profargs.txt 2>&1
flock /tmp/parpredict-timing.lock timeout 600 /tmp/predictL validate . --machine $L --np 1,2 --reps 3 --profile ../fft2d-vm/big.profile.json -- -n 1024 -reps 4 -check=false > ../fft2d-vm/validate-big.txt 2>&1
echo done
