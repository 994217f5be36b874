package probe

import (
	"fmt"
	"math"
	"sync"
	"testing"
)

// TestCounters counts with the ranks sharing the process (atomic
// updates) and with one rank alone in it (plain ones): the same numbers.
func TestCounters(t *testing.T) {
	for _, alone := range []bool{false, true} {
		t.Run(fmt.Sprintf("exclusive=%v", alone), func(t *testing.T) {
			exclusive = alone
			defer func() { exclusive = false }()
			testCounters(t)
		})
	}
}

// TestSharedCounters updates the same counters from several goroutines,
// as ranks sharing the process do: no update is lost (run with -race).
func TestSharedCounters(t *testing.T) {
	setup("1", "", "")
	defer setup("", "", "")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				Loop(0, int64(g*1000+i), 0)
			}
		}()
	}
	wg.Wait()
	r := Snapshot().Regions[0]
	if r.Execs != 4000 || r.Iters != 4000*3999/2 || r.MinIter != 0 || r.MaxIter != 3999 {
		t.Errorf("after 4000 entries of 0..3999 iterations: entries %d, iterations %d, min %d, max %d", r.Execs, r.Iters, r.MinIter, r.MaxIter)
	}
}

func testCounters(t *testing.T) {
	setup("4", "1", "1")
	defer setup("", "", "")
	Inc(0)
	Add(0, 4)
	Stop(1, Start(1))
	Loop(2, 5, LoopStart(2))
	Loop(2, 3, LoopStart(2))
	var a Acc
	for _, n := range []int64{7, 0, 2} {
		a.Add(n)
	}
	AddAcc(3, &a)
	v := NewVec(1)
	for range 3 {
		v.Tick()
	}
	v.Done()
	if NewVec(2) != nil {
		t.Error("NewVec of a loop without vector is not nil")
	}
	Inc(99) // out of range: ignored, no panic
	c := Snapshot()
	for _, tc := range []struct {
		name      string
		got, want int64
	}{
		{"region 0 execs", c.Regions[0].Execs, 5},
		{"region 1 execs", c.Regions[1].Execs, 1},
		{"loop 2 entries", c.Regions[2].Execs, 2},
		{"loop 2 iterations", c.Regions[2].Iters, 8},
		{"loop 2 min trips", c.Regions[2].MinIter, 3},
		{"loop 2 max trips", c.Regions[2].MaxIter, 5},
		{"loop 2 squares", c.Regions[2].SqIter, 34},
		{"loop 3 entries", c.Regions[3].Execs, 3},
		{"loop 3 iterations", c.Regions[3].Iters, 9},
		{"loop 3 min trips", c.Regions[3].MinIter, 0},
		{"loop 3 max trips", c.Regions[3].MaxIter, 7},
		{"loop 3 squares", c.Regions[3].SqIter, 53},
		{"vector length", int64(len(c.Regions[1].VecNs)), 3},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	if !c.Regions[1].Timed || c.Regions[2].Timed {
		t.Error("timed flags not as set up")
	}
	if c.Regions[1].Ns <= 0 {
		t.Error("timed region has no time")
	}
	if c.Regions[0].Ns != 0 {
		t.Error("untimed region has a time")
	}
}

func TestSetupBadInput(t *testing.T) {
	defer setup("", "", "")
	for _, n := range []string{"", "x", "-3", "99999999"} {
		setup(n, "all", "1,2")
		if slots != nil {
			t.Errorf("setup(%q) enabled probes", n)
		}
		Inc(0)
		Stop(0, Start(0))
		Loop(0, 1, LoopStart(0))
		NewVec(0).Tick() // nil Vec: no-op
	}
	setup("3", "all", "-1,7,x")
	if !slots[0].timed || !slots[2].timed {
		t.Error(`"all" did not time every region`)
	}
	setup("3", "0, 2 ,9,x", "")
	if !slots[0].timed || slots[1].timed || !slots[2].timed {
		t.Error("index list not applied")
	}
}

func TestCalibrate(t *testing.T) {
	c := Calibrate()
	if c.Timer <= 0 || c.ClockRes <= 0 || c.VecElem+c.VecEntry <= 0 {
		t.Errorf("calibration found no cost: %+v", c)
	}
}

// A vector loop given its longest entry ("k:n") has its recorder and
// accumulators before the program runs: an entry allocates nothing, the
// next entry gets the same recorder back, and the flushed vector is as
// long as the entries that ran, not as the preparation.
func TestPreparedVector(t *testing.T) {
	setup("3", "all", "1:100, 2")
	defer setup("", "", "")
	if len(vecs[1].ns) != 100 || vecs[1].spare.Load() == nil || cap(vecs[1].spare.Load().ns) != 100 {
		t.Fatalf("loop 1 not prepared for 100 iterations: %d accumulators, recorder %v", len(vecs[1].ns), vecs[1].spare.Load())
	}
	if vecs[2].spare.Load() != nil || !slots[2].vec {
		t.Error("loop 2, listed without a length, should be a vector loop with nothing prepared")
	}
	first := NewVec(1)
	first.Done() // no iterations: one mark, nothing recorded
	allocs := testing.AllocsPerRun(5, func() {
		v := NewVec(1)
		if v != first {
			t.Error("the recorder is not reused")
		}
		for range 40 {
			v.Tick()
		}
		v.Done()
	})
	if allocs != 0 {
		t.Errorf("an entry of a prepared vector loop allocated %.0f times", allocs)
	}
	c := Snapshot()
	if got := len(c.Regions[1].VecNs); got != 40 {
		t.Errorf("flushed vector has %d iterations, want the 40 the entries ran", got)
	}
	if c.Regions[1].VecCnt[0] != 6 {
		t.Errorf("iteration 0 counted %d times, want 6 (the warm-up and 5 runs)", c.Regions[1].VecCnt[0])
	}
}

// Loops listed in $PARPREDICT_PROBE_RANKTRIPS keep their trip counts per
// rank: each goroutine registered for a rank records into its own entry,
// from Loop (outermost loops) and AddAcc (inner loops flushed by their
// enclosing loop).
func TestRankTrips(t *testing.T) {
	setup("3", "", "")
	defer setup("", "", "")
	mark("1,2", func(s *slot) { s.ranked = true })
	rankTrips.byLo = nil
	var wg sync.WaitGroup
	for rank := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			registerRank(rank)
			for range rank + 1 {
				Loop(1, int64(10*rank), 0)
			}
			var a Acc
			a.Add(int64(rank))
			a.Add(int64(rank + 2))
			AddAcc(2, &a)
			Loop(0, 5, 0) // not ranked
		}()
	}
	wg.Wait()
	c := Snapshot()
	if got := c.Regions[0].RankTrips; got != nil {
		t.Errorf("region 0 is not ranked, has %v", got)
	}
	loop := c.Regions[1].RankTrips
	inner := c.Regions[2].RankTrips
	if len(loop) != 3 || len(inner) != 3 {
		t.Fatalf("rank trips %v and %v, want 3 ranks each", loop, inner)
	}
	for r := range 3 {
		want := TripCounts{Entries: int64(r + 1), Iters: int64((r + 1) * 10 * r), SqIter: int64((r + 1) * 100 * r * r), MinIter: int64(10 * r), MaxIter: int64(10 * r)}
		if loop[r] != want {
			t.Errorf("rank %d outer: %+v, want %+v", r, loop[r], want)
		}
		want = TripCounts{Entries: 2, Iters: int64(2*r + 2), SqIter: int64(r*r + (r+2)*(r+2)), MinIter: int64(r), MaxIter: int64(r + 2)}
		if inner[r] != want {
			t.Errorf("rank %d inner: %+v, want %+v", r, inner[r], want)
		}
	}
}

// Below counts the values of a range below a bound, as counting them one
// by one does.
func TestBelow(t *testing.T) {
	for lo := int64(-3); lo <= 3; lo++ {
		for n := int64(0); n <= 5; n++ {
			for c := int64(-5); c <= 10; c++ {
				want := int64(0)
				for j := lo; j < lo+n; j++ {
					if j < c {
						want++
					}
				}
				if got := Below(lo, n, c); got != want {
					t.Errorf("Below(%d, %d, %d) = %d, want %d", lo, n, c, got, want)
				}
			}
		}
	}
	if got := Below(math.MinInt64+1, 10, math.MaxInt64); got != 10 {
		t.Errorf("Below across the whole int64 range = %d, want 10", got)
	}
}

// Loops records what as many entries of the same trip count, each added
// to an accumulator, record; nothing for no entry; no square sum where it
// would overflow.
func TestLoops(t *testing.T) {
	setup("4", "", "")
	defer setup("", "", "")
	var a Acc
	for range 7 {
		a.Add(5)
	}
	AddAcc(1, &a)
	Loops(2, 7, 5)
	Loops(2, 0, 9)
	Loops(3, 16, 1<<30)
	c := Snapshot()
	one, two := c.Regions[1], c.Regions[2]
	type stats struct{ execs, iters, sq, lo, hi int64 }
	of := func(r RegionCounts) stats { return stats{r.Execs, r.Iters, r.SqIter, r.MinIter, r.MaxIter} }
	if one.Execs != 7 || of(two) != of(one) {
		t.Errorf("Loops(2, 7, 5) recorded %+v, seven entries of 5 %+v", of(two), of(one))
	}
	if r := of(c.Regions[3]); r != (stats{16, 16 << 30, 0, 1 << 30, 1 << 30}) {
		t.Errorf("Loops(3, 16, 1<<30) recorded %+v, want 16 entries of 2^30 without the overflowing square sum", r)
	}
}
