package bench

import (
	"runtime"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

// Clock is one rank's view of the global clock: its local mpi.Wtime plus
// the offset to rank 0's clock.
type Clock struct {
	Offset float64
	RTT    float64 // the smallest round trip seen while synchronising
}

// Now is the global time.
func (k *Clock) Now() float64 { return mpi.Wtime() + k.Offset }

// WaitUntil spins until global time t; it reports whether the rank was
// past t already, on entry or after sleeping (the launch is late). It
// sleeps through most of a long wait and yields while spinning, so that
// ranks sharing a core (the goroutine backend) leave the CPU to the ranks
// that are working. The sleep ends sleepMargin before t: a virtual
// machine's timers overshoot by hundreds of microseconds, and a rank that
// wakes after t would make its partner wait (and poll, or park) inside the
// timed operation.
func (k *Clock) WaitUntil(t float64) (late bool) {
	now := k.Now()
	if now > t {
		return true
	}
	if rest := t - now; rest > sleepMargin+100e-6 {
		time.Sleep(time.Duration((rest - sleepMargin) * 1e9))
		if k.Now() > t {
			return true
		}
	}
	for k.Now() < t {
		runtime.Gosched()
	}
	return false
}

// sleepMargin is how long before a launch WaitUntil stops sleeping and
// spins.
const sleepMargin = 1e-3

const (
	tagSync = 31001 + iota
	tagPing
)

// SyncClocks computes every rank's offset to rank 0 by the linear
// algorithm of MPIPerf: rank 0 answers rank i's pings with its own time
// T0; o_i = T0 - RTT/2 - t_i, where t_i is rank i's send time of the ping
// with the smallest round trip; rank i stops when that minimum has not
// improved for stable tries (or after maxTries).
func SyncClocks(c *mpi.Comm, stable, maxTries int) *Clock {
	k := &Clock{}
	for i := 1; i < c.Size(); i++ {
		switch c.Rank() {
		case 0:
			serveOffset(c, i)
		case i:
			k = pingOffset(c, 0, stable, maxTries)
		}
	}
	return k
}

// SyncClocksRing is MPIPerf's ring algorithm: every rank measures its
// offset to its left neighbour (odd ranks first, then even ones, so that
// each rank serves one neighbour at a time), the neighbour offsets are
// gathered, and rank i's offset to rank 0 is the sum of those of ranks
// 1..i. It takes the time of two ping-pong series instead of n-1.
func SyncClocksRing(c *mpi.Comm, stable, maxTries int) *Clock {
	n, r := c.Size(), c.Rank()
	local := &Clock{}
	for phase := 1; phase >= 0; phase-- {
		// In this phase ranks of parity phase (>0) ping their left
		// neighbour, which answers.
		switch {
		case r > 0 && r%2 == phase:
			local = pingOffset(c, r-1, stable, maxTries)
		case r+1 < n && (r+1)%2 == phase:
			serveOffset(c, r+1)
		}
	}
	mine := []float64{local.Offset, local.RTT}
	all := make([]float64, 2*n)
	mpi.Allgather(c, mine, all)
	k := &Clock{}
	for i := 1; i <= r; i++ {
		k.Offset += all[2*i]
		k.RTT = max(k.RTT, all[2*i+1])
	}
	return k
}

// pingOffset measures this rank's clock offset to peer's clock.
func pingOffset(c *mpi.Comm, peer, stable, maxTries int) *Clock {
	k := &Clock{}
	buf := make([]float64, 1)
	best, same := -1.0, 0
	for try := 0; try < maxTries && same < stable; try++ {
		t1 := mpi.Wtime()
		buf[0] = 1
		mpi.Send(c, buf, peer, tagSync)
		mpi.Recv(c, buf, peer, tagSync)
		rtt := mpi.Wtime() - t1
		if best < 0 || rtt < best {
			best, same = rtt, 0
			k.RTT = rtt
			k.Offset = buf[0] - rtt/2 - t1
		} else {
			same++
		}
	}
	buf[0] = -1
	mpi.Send(c, buf, peer, tagSync)
	return k
}

// serveOffset answers peer's pings with this rank's time until told to stop.
func serveOffset(c *mpi.Comm, peer int) {
	buf := make([]float64, 1)
	for {
		mpi.Recv(c, buf, peer, tagSync)
		if buf[0] < 0 {
			return
		}
		buf[0] = mpi.Wtime()
		mpi.Send(c, buf, peer, tagSync)
	}
}
