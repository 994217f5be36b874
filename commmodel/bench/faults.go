package bench

import (
	"fmt"
	"os"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

// faultBytes is the fresh memory each rank touches per repetition: enough
// pages that the per-page time is not the timer's resolution, little
// enough that a slow machine (12 us per page on the 2-core VM) takes 25 ms.
const faultBytes = 8 << 20

// faultReps is the number of repetitions per rank count.
const faultReps = 5

// faultSuite times the first touch of memory nobody used before: each of
// the first k ranks maps faultBytes afresh and writes one byte per page,
// all k at once, for k = 1 .. c.Size(). A receive into a newly allocated
// buffer pays this (docs/bench.md); the kernel's page-fault path, not the
// copy, is what takes the time. Each repetition's time is the slowest
// rank's, per page; a row summarises the repetitions.
func faultSuite(c *mpi.Comm, _ *Clock, _ float64, o Options, progress func(string)) []Row {
	var rows []Row
	page := os.Getpagesize()
	var base float64
	for k := 1; k <= c.Size(); k++ {
		times := make([]float64, 0, faultReps)
		for range faultReps {
			mine := 0.0
			var mem []byte
			var err error
			if c.Rank() < k {
				mem, err = freshMemory(faultBytes)
			}
			c.Barrier()
			if mem != nil {
				t0 := time.Now()
				for i := 0; i < len(mem); i += page {
					mem[i] = 1
				}
				mine = time.Since(t0).Seconds() / float64(len(mem)/page)
			}
			if err == nil && mem != nil {
				err = releaseMemory(mem)
			}
			failed := 0.0
			if err != nil {
				failed = 1 // this platform cannot map fresh memory: no row
			}
			// The slowest rank's time, and whether any rank failed.
			got := make([]float64, 2)
			mpi.Allreduce(c, []float64{mine, failed}, got, mpi.Max)
			if got[1] > 0 { // every rank sees it: all leave together
				return nil
			}
			times = append(times, got[0])
		}
		st := Summarise(times, len(times), o.Params.Trim)
		if k == 1 {
			base = st.Mean
		}
		r := Row{Kind: "faults", Label: "FirstTouch/page", Bytes: page, Ranks: k, Stats: st}
		if base > 0 {
			r.Ratio = st.Mean / base
		}
		rows = append(rows, r)
		progress(fmt.Sprintf("page faults ranks=%d", k))
	}
	return rows
}
