//go:build !openmpi && !mpich

package mpi

import (
	"runtime"
	"sync/atomic"
)

// yieldLock is the goroutine backend's world lock. A rank that finds it
// taken spins briefly, then yields its core to other goroutines, and never
// parks: a parked goroutine's thread sleeps, and waking it again costs tens
// of microseconds on a virtual machine, many times the critical sections
// the lock protects (a message copy, a queue update), so a sync.Mutex made
// ranks that exchanged messages at the same moment pay that wake-up per
// operation. Ranks that outnumber the cores still share them, as Gosched
// lets the holder run.
type yieldLock struct{ state atomic.Int32 }

func (l *yieldLock) Lock() {
	for i := 0; !l.state.CompareAndSwap(0, 1); i++ {
		if i%32 == 31 {
			runtime.Gosched()
		}
	}
}

func (l *yieldLock) Unlock() { l.state.Store(0) }
