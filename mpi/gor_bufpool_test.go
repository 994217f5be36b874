//go:build !openmpi && !mpich

package mpi

import (
	"sync"
	"testing"
)

// A buffer released by one goroutine is the one the next copy of its size
// class gets, on any goroutine (a sync.Pool kept it where only its own P
// found it), and the pool keeps at most pooledMax bytes.
func TestPayloadPoolReusesAcrossGoroutines(t *testing.T) {
	data := make([]byte, 300<<10) // class 2^19
	first := payloadCopy(data)
	releasePayload(first)
	var got []byte
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = payloadCopy(data)
	}()
	wg.Wait()
	if &got[0] != &first[0] || len(got) != len(data) {
		t.Fatalf("the copy did not reuse the released buffer")
	}
	releasePayload(got)

	var kept [][]byte
	for range pooledMax/(1<<19) + 4 {
		kept = append(kept, payloadCopy(data))
	}
	for _, b := range kept {
		releasePayload(b)
	}
	payloadPool.mu.Lock()
	bytes, n := payloadPool.bytes, len(payloadPool.free[19])
	payloadPool.mu.Unlock()
	if bytes > pooledMax || n != pooledMax/(1<<19) {
		t.Errorf("pool keeps %d bytes in %d buffers, want at most %d bytes", bytes, n, pooledMax)
	}
	small := payloadCopy(data[:100])
	releasePayload(small) // below pooledMin: not pooled
	if payloadPool.bytes != bytes {
		t.Errorf("a small buffer entered the pool")
	}
}
