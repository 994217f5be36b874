#!/bin/bash
# make-dev.sh [DIR]: makes the files the device scripts of this folder
# carry (DIR, default .dev at the repository root, which
# .git/info/exclude should list): gotrim.tar.xz, this machine's Go
# toolchain without tests, test data, docs, the toolchain's own sources
# and the tools a build does not run (23 MB, so that it fits the device's
# 64 MiB transfer with the repository), and bins.tar.xz, predict and the
# prediction and profiler test binaries built from the working tree (21
# MB; the scripts name what they need). About 3 minutes here.
set -eu
cd "$(dirname "$0")/../../.."
out=$(realpath -m "${1:-.dev}"); mkdir -p "$out"
goroot=$(go env GOROOT); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/go/pkg/tool/linux_amd64" "$tmp/go/bin"
cp "$goroot/bin/go" "$tmp/go/bin/"
cp "$goroot"/VERSION "$goroot"/go.env "$tmp/go/"
for t in compile link asm cgo; do cp "$goroot/pkg/tool/linux_amd64/$t" "$tmp/go/pkg/tool/linux_amd64/"; done
cp -r "$goroot/pkg/include" "$tmp/go/pkg/"
mkdir -p "$tmp/go/lib" && cp -r "$goroot/lib/time" "$goroot/lib/fips140" "$tmp/go/lib/" 2>/dev/null || true
tar -C "$goroot" -cf - --exclude='*_test.go' --exclude=testdata --exclude=src/cmd src | tar -C "$tmp/go" -xf -
tar -C "$tmp" -cJf "$out/gotrim.tar.xz" go
CGO_ENABLED=0 go build -o "$tmp/bins/predict" ./cmd/predict
CGO_ENABLED=0 go test -c -o "$tmp/bins/prediction.test" ./prediction
CGO_ENABLED=0 go test -c -o "$tmp/bins/profiler.test" ./profiler
tar -C "$tmp/bins" -cJf "$out/bins.tar.xz" predict prediction.test profiler.test
ls -l "$out"
