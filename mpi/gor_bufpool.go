//go:build !openmpi && !mpich

package mpi

import (
	"math/bits"
	"sync"
)

// Buffers of queued messages (sent before their receive was posted) are
// recycled: a fresh megabyte from the operating system costs hundreds of
// page faults (tens of microseconds each on a virtual machine), and the
// garbage collections that many of them bring stop ranks that are
// exchanging for milliseconds. A buffer goes back to the pool once the
// receive that matched its message has copied it out.
//
// The pool is a plain free list, not a sync.Pool: a sync.Pool keeps the
// last buffer put on a P where only that P finds it, and empties at every
// other collection, so the rank on the other core made a fresh buffer
// anyway. transpose at P = 2 paid 1.8 ms of page faults in its second
// Alltoallv on both ranks for it (2026-11-23, the 2-core VM).

// pooledMin is the smallest payload taken from the pool; smaller ones are
// allocated: cheap, and too little to bring a collection on by themselves.
const pooledMin = 1 << 9

// pooledMax bounds the bytes the pool keeps; buffers released beyond it
// are left to the collector.
const pooledMax = 256 << 20

// payloadPool holds free buffers of capacity 2^k, by k.
var payloadPool struct {
	mu    sync.Mutex
	free  [bits.UintSize][][]byte
	bytes int
}

// payloadCopy returns a copy of data, in a pooled buffer when it is large.
func payloadCopy(data []byte) []byte {
	if len(data) < pooledMin {
		return append([]byte(nil), data...)
	}
	k := bits.Len(uint(len(data) - 1)) // 2^k >= len(data)
	var buf []byte
	p := &payloadPool
	p.mu.Lock()
	if n := len(p.free[k]); n > 0 {
		buf = p.free[k][n-1][:len(data)]
		p.free[k] = p.free[k][:n-1]
		p.bytes -= cap(buf)
	}
	p.mu.Unlock()
	if buf == nil {
		buf = make([]byte, len(data), 1<<k)
	}
	copy(buf, data)
	return buf
}

// releasePayload returns a buffer from payloadCopy to the pool.
func releasePayload(buf []byte) {
	c := cap(buf)
	if c < pooledMin || c&(c-1) != 0 {
		return // not from the pool
	}
	k := bits.Len(uint(c - 1))
	p := &payloadPool
	p.mu.Lock()
	if p.bytes+c <= pooledMax {
		p.free[k] = append(p.free[k], buf[:0])
		p.bytes += c
	}
	p.mu.Unlock()
}
