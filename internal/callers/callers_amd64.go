package callers

import "unsafe"

// framePointer is the frame pointer of the function that calls it.
func framePointer() unsafe.Pointer

// PCs fills pcs with the return addresses of the calling goroutine's
// frames, from the one into PCs' caller on, and returns how many it
// stored.
//
//go:noinline
func PCs(pcs []uintptr) int {
	fp := framePointer() // PCs' own frame
	n := 0
	for n < len(pcs) && fp != nil {
		// The return address sits one word above the saved frame pointer.
		pcs[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		fp = *(*unsafe.Pointer)(fp)
		n++
	}
	return n
}
