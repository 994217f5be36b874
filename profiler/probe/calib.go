package probe

import (
	"os"
	"runtime"
	"time"
)

// EnvCalibrate asks Flush to measure the probes' cost first.
const EnvCalibrate = "PARPREDICT_PROBE_CALIBRATE"

// Costs are the measured costs of the probes in nanoseconds, taken in the
// instrumented program itself so that they match its build and machine.
type Costs struct {
	Timer     float64 `json:"timer"`     // Stop(k, Start(k)) on a timed region
	Body      float64 `json:"body"`      // a timed function body (deferred Stop)
	Loop      float64 `json:"loop"`      // Span.Begin and Span.End on a timed loop (the timing binary's loop timer)
	Untimed   float64 `json:"untimed"`   // an untimed call site in a loop (check and local count)
	Tick      float64 `json:"tick"`      // one Vec.Tick
	VecEntry  float64 `json:"vecEntry"`  // NewVec and Done of one entry of a vector loop, beyond VecElem per iteration
	VecElem   float64 `json:"vecElem"`   // Done's merge of one iteration's time
	ClockRes  float64 `json:"clockRes"`  // smallest step of Now seen
	Reference float64 `json:"reference"` // the empty loop the others are measured against
}

const calibIters = 10000

// Calibrate measures Costs on a spare slot. Each cost is the best of a
// few runs, minus the empty loop, so that noise does not inflate it.
func Calibrate() Costs {
	saved, savedVecs, savedShards := slots, vecs, shards
	slots, vecs, shards = make([]slot, 2), make([]vecAcc, 2), new(shardSet)
	defer func() { slots, vecs, shards = saved, savedVecs, savedShards }()
	slots[0].timed, slots[0].vec = true, true
	var c Costs
	c.Reference = best(func() {
		for i := 0; i < calibIters; i++ {
			sink++
		}
	})
	c.Timer = best(func() {
		for i := 0; i < calibIters; i++ {
			Stop(0, Start(0))
		}
	}) - c.Reference
	c.Body = best(func() {
		for i := 0; i < calibIters; i++ {
			timedBody()
		}
	}) - best(func() {
		for i := 0; i < calibIters; i++ {
			emptyBody()
		}
	})
	c.Loop = best(func() {
		var s Span
		for i := 0; i < calibIters; i++ {
			s.Begin(0, 1)
			s.End(0)
		}
	}) - c.Reference
	var local int64
	c.Untimed = best(func() {
		for i := 0; i < calibIters; i++ {
			if t := Start(1); t != 0 {
				Stop(1, t)
			} else {
				local++
			}
		}
	}) - c.Reference
	sink += int(local)
	v := &Vec{k: 0, last: -1}
	c.Tick = best(func() {
		for i := 0; i < calibIters; i++ {
			v.Tick()
			if len(v.ns) > 1<<12 {
				v.ns = v.ns[:0]
			}
		}
	}) - c.Reference
	// An entry of a vector loop costs NewVec (an atomic swap, inside the
	// loop's timer) and Done (after it), a + b n for n iterations: fitted
	// from entries of 16 and 1024 iterations, less their ticks (counted
	// inside the loop).
	entry := func(n int) float64 {
		return best(func() {
			for i := 0; i < calibIters/n; i++ {
				v := NewVec(0)
				for range n {
					v.Tick()
				}
				v.Done()
			}
		})*float64(calibIters)/float64(calibIters/n*n) - c.Reference
	}
	// Per iteration, x(n) = Tick + VecElem + VecEntry / n.
	small, large := entry(16), entry(1024)
	c.VecEntry = (small - large) / (1.0/16 - 1.0/1024)
	c.VecElem = large - c.VecEntry/1024 - c.Tick
	c.ClockRes = clockRes()
	runtime.KeepAlive(sink) // the loops' work must not be optimised away
	for _, p := range []*float64{&c.Timer, &c.Body, &c.Loop, &c.Untimed, &c.Tick, &c.VecEntry, &c.VecElem} {
		*p = max(*p, 0)
	}
	return c
}

var sink int

//go:noinline
func timedBody() {
	if t := Start(0); t != 0 {
		defer Stop(0, t)
	}
	sink++
}

//go:noinline
func emptyBody() { sink++ }

// best runs f twenty times and returns the smallest time per iteration:
// short runs, many times, so that one of them misses the other processes.
func best(f func()) float64 {
	b := time.Duration(1 << 62)
	for range 20 {
		t0 := time.Now()
		f()
		b = min(b, time.Since(t0))
	}
	return float64(b) / calibIters
}

// clockRes is the smallest non-zero difference between readings of Now.
func clockRes() float64 {
	res := int64(1 << 62)
	for range 1000 {
		a := Now()
		b := Now()
		for b == a {
			b = Now()
		}
		res = min(res, b-a)
	}
	return float64(res)
}

func calibrateRequested() bool { return os.Getenv(EnvCalibrate) != "" }
