//go:build !amd64

package mpi

import "runtime"

// callerPCs fills pcs with the return addresses of the calling goroutine's
// frames, from the one into its caller on, and returns how many
// it stored (runtime.Callers; amd64 follows frame pointers instead).
//
//go:noinline
func callerPCs(pcs []uintptr) int { return runtime.Callers(2, pcs) }
