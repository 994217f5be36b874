package probe

import (
	"sync"
	"testing"
)

// Ranks sharing the process count in shards of their own; the snapshot
// merges them: sums, the smallest and largest entry, squares.
func TestShardsMerge(t *testing.T) {
	setup("2", "all", "")
	defer setup("", "", "")
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				n := int64(100*g + i + 1) // 1..10, 101..110, 201..210
				Loop(0, n, LoopStart(0))
			}
			Stop(1, Start(1))
		}()
	}
	wg.Wait()
	Loop(0, 50, 0) // before Main's ranks: the canonical slots
	r := Snapshot().Regions
	var sq int64 = 50 * 50
	for g := range 3 {
		for i := range 10 {
			n := int64(100*g + i + 1)
			sq += n * n
		}
	}
	if got := r[0]; got.Execs != 31 || got.Iters != 55+1055+2055+50 || got.MinIter != 1 || got.MaxIter != 210 || got.SqIter != sq || got.Ns <= 0 {
		t.Errorf("loop: %+v; want 31 entries, %d iterations, min 1, max 210, squares %d, time > 0", got, 55+1055+2055+50, sq)
	}
	if r[1].Execs != 3 || r[1].Ns <= 0 {
		t.Errorf("timed region: %d executions, %d ns; want 3, > 0", r[1].Execs, r[1].Ns)
	}
}

// The probes' calibration uses slots of its own, also where ranks made
// shards as long as a one-region program's slots.
func TestCalibrateAfterShards(t *testing.T) {
	setup("1", "all", "")
	defer setup("", "", "")
	done := make(chan struct{})
	go func() { Loop(0, 3, LoopStart(0)); close(done) }()
	<-done
	c := Calibrate()
	if c.Timer <= 0 && c.Loop <= 0 {
		t.Errorf("costs %+v", c)
	}
	if r := Snapshot().Regions[0]; r.Execs != 1 || r.Iters != 3 {
		t.Errorf("the program's counters after calibrating: %+v, want 1 entry of 3 iterations", r)
	}
}

// BenchmarkLoopOneRegion times a loop entry (LoopStart and Loop on a timed
// region) with GOMAXPROCS goroutines entering the same loop, as ranks
// sharing the process run the same kernel. Before the counters were
// sharded, two goroutines took 280-300 ns an entry against 82 ns alone
// (2-core VM); compare -cpu 1 and -cpu 2.
//
//	go test -run '^$' -bench LoopOneRegion -cpu 1,2 ./profiler/probe
func BenchmarkLoopOneRegion(b *testing.B) {
	setup("1", "all", "")
	defer setup("", "", "")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Loop(0, 100, LoopStart(0))
		}
	})
}
