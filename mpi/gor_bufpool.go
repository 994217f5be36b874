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

// pooledMin is the smallest payload taken from the pool; smaller ones are
// allocated: cheap, and too little to bring a collection on by themselves.
const pooledMin = 1 << 9

// payloadPools hold buffers of capacity 2^k, by k.
var payloadPools [bits.UintSize]sync.Pool

// payloadCopy returns a copy of data, in a pooled buffer when it is large.
func payloadCopy(data []byte) []byte {
	if len(data) < pooledMin {
		return append([]byte(nil), data...)
	}
	k := bits.Len(uint(len(data) - 1)) // 2^k >= len(data)
	var buf []byte
	if p, ok := payloadPools[k].Get().(*[]byte); ok {
		buf = (*p)[:len(data)]
	} else {
		buf = make([]byte, len(data), 1<<k)
	}
	copy(buf, data)
	return buf
}

// releasePayload returns a buffer from payloadCopy to its pool.
func releasePayload(buf []byte) {
	c := cap(buf)
	if c < pooledMin || c&(c-1) != 0 {
		return // not from the pool
	}
	buf = buf[:0]
	payloadPools[bits.Len(uint(c-1))].Put(&buf)
}
