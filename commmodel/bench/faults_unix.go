//go:build unix

package bench

import "syscall"

// freshMemory maps n bytes the process never touched: each page faults on
// its first write, as fresh heap memory of a program does.
func freshMemory(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

func releaseMemory(b []byte) error { return syscall.Munmap(b) }
