//go:build !amd64

package callers

import "runtime"

// PCs fills pcs with the return addresses of the calling goroutine's
// frames, from the one into PCs' caller on, and returns how many it
// stored (runtime.Callers; amd64 follows frame pointers instead).
//
//go:noinline
func PCs(pcs []uintptr) int { return runtime.Callers(2, pcs) }
