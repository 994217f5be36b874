package bench

import (
	"runtime"

	"github.com/parpredict/parpredict/mpi"
)

// Params are the knobs of the MPIPerf method; DefaultParams holds the
// paper's defaults.
type Params struct {
	WarmUp       int     // k': warm-up launches of round 0, discarded
	PerRound     int     // k: launches per round
	Widen        float64 // widen the slot when this fraction of a round is invalid
	Gamma        float64 // slot growth factor
	MaxLaunches  int     // stop after more launches than this
	MaxValid     int     // or more valid ones than this
	TargetRelErr float64 // or a relative error this small ...
	MinValid     int     // ... with at least this many valid launches
	Trim         float64 // fraction trimmed from each end
}

// DefaultParams are MPIPerf's defaults (SEEDS.md 2).
var DefaultParams = Params{WarmUp: 4, PerRound: 8, Widen: 0.25, Gamma: 1.1, MaxLaunches: 100,
	MaxValid: 30, TargetRelErr: 0.05, MinValid: 10, Trim: 0.25}

// Measure times op by the MPIPerf method. Every rank of c must call it
// with the same arguments (it is SPMD); every rank returns the same
// result. tBcast bounds the time to broadcast a timestamp.
func Measure(c *mpi.Comm, k *Clock, tBcast float64, p Params, op func()) Stats {
	// Start every data point with a clean heap (see Calibrate).
	runtime.GC()
	c.Barrier()
	// Round 0: warm-up, back to back; it sets the first slot.
	dur := make([]float64, 1)
	for range p.WarmUp {
		c.Barrier()
		t0 := k.Now()
		op()
		dur[0] = max(dur[0], k.Now()-t0)
	}
	slot := make([]float64, 1)
	mpi.Allreduce(c, append([]float64(nil), dur...), slot, mpi.Max)
	delta := max(p.Gamma*slot[0], 1e-6)

	var valid []float64
	launches := 0
	ends := make([]float64, p.PerRound)
	bad := make([]float64, p.PerRound)
	allEnds := make([]float64, p.PerRound)
	allBad := make([]float64, p.PerRound)
	tau := make([]float64, 1)
	for {
		if c.Rank() == 0 {
			tau[0] = k.Now() + tBcast
		}
		mpi.Bcast(c, tau, 0)
		for l := range p.PerRound {
			start := tau[0] + float64(l)*delta
			bad[l] = 0
			if k.WaitUntil(start) {
				bad[l] = 1
			}
			op()
			ends[l] = k.Now()
			if ends[l] > start+delta {
				bad[l] = 1
			}
		}
		mpi.Allreduce(c, ends, allEnds, mpi.Max)
		mpi.Allreduce(c, bad, allBad, mpi.Max)
		invalid := 0
		for l := range p.PerRound {
			launches++
			if allBad[l] > 0 {
				invalid++
				continue
			}
			valid = append(valid, allEnds[l]-(tau[0]+float64(l)*delta))
		}
		st := Summarise(valid, launches, p.Trim)
		if launches > p.MaxLaunches || st.Valid > p.MaxValid ||
			(st.Valid >= p.MinValid && st.RelErr() <= p.TargetRelErr) {
			return st
		}
		if float64(invalid) >= p.Widen*float64(p.PerRound) {
			// The round took tau' - tau: give each launch a gamma share of it.
			delta = max(p.Gamma*(allEnds[p.PerRound-1]-tau[0])/float64(p.PerRound), p.Gamma*delta)
		}
	}
}

// BroadcastBound measures how long broadcasting a timestamp takes: the
// largest of a few broadcasts, timed on every rank, doubled for safety.
func BroadcastBound(c *mpi.Comm, k *Clock) float64 {
	buf := make([]float64, 1)
	worst := 0.0
	for range 10 {
		c.Barrier()
		t0 := k.Now()
		mpi.Bcast(c, buf, 0)
		worst = max(worst, k.Now()-t0)
	}
	out := make([]float64, 1)
	mpi.Allreduce(c, []float64{worst}, out, mpi.Max)
	return 2*out[0] + 1e-5
}
