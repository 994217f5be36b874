package report

import (
	"fmt"
	"testing"
)

// haloTimeline is np ranks on a ring doing iters steps of compute, a
// Sendrecv to each neighbour and an Allreduce: the shape of the
// interpreter's output for the heat example.
func haloTimeline(np, iters int) *Timeline {
	tl := &Timeline{Program: "halo"}
	for r := 0; r < np; r++ {
		rt := RankTimeline{Rank: r}
		t := 0.0
		left, right := (r+np-1)%np, (r+1)%np
		for i := 0; i < iters; i++ {
			w := 1e-3 * (1 + 0.01*float64(r%7))
			rt.Segments = append(rt.Segments, comp(t, t+w))
			t += w
			for _, nb := range []int{right, left} {
				s := mpiSeg(KindMPI, "Sendrecv", "heat.go:88", t, t+1e-5, nb, (2*r-nb+np)%np, 0, 0)
				rt.Segments = append(rt.Segments, s)
				t += 1e-5
			}
			rt.Segments = append(rt.Segments, mpiSeg(KindMPI, "Allreduce", "heat.go:95", t, t+2e-5, -1, -1, -1, 0))
			t += 2e-5
		}
		tl.Ranks = append(tl.Ranks, rt)
	}
	return tl
}

func BenchmarkLosses(b *testing.B) {
	for _, np := range []int{64, 1024} {
		tl := haloTimeline(np, 100)
		b.Run(fmt.Sprintf("np=%d", np), func(b *testing.B) {
			for b.Loop() {
				if _, err := Losses(tl, LossOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(np*100*4*b.N)/b.Elapsed().Seconds(), "segments/s")
		})
	}
}
