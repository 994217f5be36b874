// Package timinglock serialises the tests that time programs, across the
// test binaries that `go test ./...` runs in parallel: a test that
// profiles a program and checks what the times say (a balanced loop, a
// kernel's share) fails when another package's profiling runs take half
// the cores at random moments. Each such test holds a lock on a file in
// the temporary directory for its duration.
package timinglock
