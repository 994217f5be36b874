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

// WaitUntil spins until global time t; it reports whether it was already
// past t on entry (the launch is late). It sleeps through most of a long
// wait and yields while spinning, so that ranks sharing a core (the
// goroutine backend) leave the CPU to the ranks that are working.
func (k *Clock) WaitUntil(t float64) (late bool) {
	now := k.Now()
	if now > t {
		return true
	}
	if rest := t - now; rest > 300e-6 {
		time.Sleep(time.Duration((rest - 200e-6) * 1e9))
	}
	for k.Now() < t {
		runtime.Gosched()
	}
	return false
}

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
	buf := make([]float64, 1)
	for i := 1; i < c.Size(); i++ {
		switch c.Rank() {
		case 0:
			for {
				mpi.Recv(c, buf, i, tagSync)
				if buf[0] < 0 {
					break
				}
				buf[0] = mpi.Wtime()
				mpi.Send(c, buf, i, tagSync)
			}
		case i:
			best, same := -1.0, 0
			for try := 0; try < maxTries && same < stable; try++ {
				t1 := mpi.Wtime()
				buf[0] = 1
				mpi.Send(c, buf, 0, tagSync)
				mpi.Recv(c, buf, 0, tagSync)
				t2 := mpi.Wtime()
				rtt := t2 - t1
				if best < 0 || rtt < best {
					best, same = rtt, 0
					k.RTT = rtt
					k.Offset = buf[0] - rtt/2 - t1
				} else {
					same++
				}
			}
			buf[0] = -1
			mpi.Send(c, buf, 0, tagSync)
		}
	}
	return k
}
