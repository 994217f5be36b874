package bench

import (
	"math"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

// On the goroutine backend every rank reads the same clock, so a correct
// offset lies within half the best round trip of zero.
func TestSyncClocksWithinHalfRTT(t *testing.T) {
	err := mpi.Run(3, func(c *mpi.Comm) {
		k := SyncClocks(c, 20, 200)
		if c.Rank() == 0 {
			if k.Offset != 0 {
				t.Errorf("rank 0 offset %v", k.Offset)
			}
			return
		}
		if k.RTT <= 0 || math.Abs(k.Offset) > k.RTT/2+1e-12 {
			t.Errorf("rank %d: offset %v, RTT %v", c.Rank(), k.Offset, k.RTT)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The ring algorithm's offset is a sum of neighbour offsets, each within
// half its round trip of zero on the shared clock.
func TestSyncClocksRing(t *testing.T) {
	for _, n := range []int{1, 2, 3, 6} {
		err := mpi.Run(n, func(c *mpi.Comm) {
			k := SyncClocksRing(c, 20, 200)
			bound := float64(c.Rank()) * k.RTT / 2
			if c.Rank() == 0 && k.Offset != 0 {
				t.Errorf("rank 0 offset %v", k.Offset)
			}
			if math.Abs(k.Offset) > bound+1e-12 {
				t.Errorf("n=%d rank %d: offset %v beyond %v", n, c.Rank(), k.Offset, bound)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// WaitPatternUp: rank i spins (i+1) us after its slot starts, so a launch
// can never take less than n us; the method must report at least that,
// with its launch counts consistent.
func TestMeasureWaitPatternUp(t *testing.T) {
	const n = 2
	p := DefaultParams
	p.MaxLaunches = 40
	var got Stats
	err := mpi.Run(n, func(c *mpi.Comm) {
		k := SyncClocks(c, 20, 200)
		tb := BroadcastBound(c, k)
		st := Measure(c, k, tb, p, func() { spin(float64(c.Rank()+1) * 1e-6) })
		if c.Rank() == 0 {
			got = st
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Valid == 0 {
		t.Skip("no valid launch: the machine is too loaded for this check")
	}
	if got.Min < n*1e-6 || got.Mean < got.Min || got.Max < got.Mean {
		t.Errorf("WaitPatternUp with %d ranks: %+v, want min >= %g s", n, got, n*1e-6)
	}
	if got.Launches > p.MaxLaunches+p.PerRound || got.Valid > got.Launches || got.Trimmed > got.Valid {
		t.Errorf("inconsistent counts: %+v", got)
	}
}
