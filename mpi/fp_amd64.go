package mpi

import "unsafe"

// framePointer is the frame pointer of the function that calls it.
func framePointer() unsafe.Pointer

// callerPCs fills pcs with the return addresses of the calling goroutine's
// frames, from the one into its caller on, and returns how many
// it stored: the same addresses runtime.Callers gives, found by following
// the frame pointers that Go keeps on amd64 (a few loads) instead of the
// unwinder (some 200 ns, most of what recording a traced call cost).
//
//go:noinline
func callerPCs(pcs []uintptr) int {
	fp := framePointer() // callerPCs' own frame
	n := 0
	for n < len(pcs) && fp != nil {
		// The return address sits one word above the saved frame pointer.
		pcs[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		fp = *(*unsafe.Pointer)(fp)
		n++
	}
	return n
}
