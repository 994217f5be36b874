package profiler

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
)

// BenchmarkOverhead runs every example plain, with the counting binary
// and with the timing binary (timers as the profiler places them, mpi
// trace on), alternating, b.N rounds, and reports per example:
//
//   - overhead: shortest timing-binary run / shortest plain run (the
//     timed runs are the ones whose times go into the profile; target
//     at most 1.2);
//   - overhead-paired-median: the timing run over the plain run of the
//     same round, the median over rounds (runs a few seconds apart,
//     where the shortest of each binary may come minutes apart);
//   - count-overhead: the same for the counting run, which only counts;
//   - vectors-overhead: the same for the vector binary, which ticks in
//     the tight loops whose per-iteration times the timing binary leaves
//     out (only where there are such loops: its runs give shapes, not
//     times);
//   - plain-accounted-err-%: own times plus MPI time of the fastest
//     timed run against the ranks' bodies in the program built without
//     any probe, the binary the user runs (the shortest of its runs, from
//     the goroutine backend's trace of each rank's start and finish, as
//     the profile's plainBodyNs; target 5 %);
//   - plain-accounted-err-paired-median-%: each timed run's own times
//     and MPI against the plain binary's bodies of the same round, the
//     median over rounds;
//   - accounted-err-%: the same against main's time in the one-probe
//     baseline (a single timer, on main: process start-up is in no
//     region), which a probe can put in another code layout (matmul's
//     kernel, docs/profiler.md).
//
// Inputs are chosen so that every run takes a few hundred milliseconds.
//
//	go test -run '^$' -bench Overhead -benchtime 15x ./profiler
func BenchmarkOverhead(b *testing.B) {
	for _, ex := range []struct {
		name string
		args []string
		np   int
	}{
		{"matmul", []string{"-n", "500", "-check=false"}, 1},
		{"heat", []string{"-check=false"}, 1},
		{"transpose", []string{"-n", "1024", "-reps", "40", "-check=false"}, 1},
		{"mandelbrot", []string{"-check=false"}, 1},
		{"cg", []string{"-n", "256", "-check=false"}, 1},
		{"pingpong", []string{"-max", "65536", "-reps", "5000"}, 2},
	} {
		b.Run(ex.name, func(b *testing.B) {
			src := filepath.Join("..", "examples", ex.name)
			if _, err := os.Stat(src); err != nil {
				b.Skip("no example here:", err)
			}
			ctx := context.Background()
			dir := b.TempDir()
			prog, ts, in := instrumentCounting(b, ".", src)
			plain, err := Build(ctx, prog, nil, dir, "plain")
			if err != nil {
				b.Fatal(err)
			}
			counting, err := Build(ctx, prog, in, dir, "counting")
			if err != nil {
				b.Fatal(err)
			}
			r := &runner{opts: Options{Args: ex.args, NP: ex.np}, bin: counting, tmp: dir, n: len(in.Regions) + 1, in: in, launchNs: map[*measured]float64{}}
			count, err := r.run(ctx, "count", nil, ex.np, false)
			if err != nil {
				b.Fatal(err)
			}
			plan := planTimers(in, count.counts, *count.counts.Costs, count.wallNs, 0.05)
			tb, err := buildTiming(ctx, prog, in, ts, plan, dir, nil, false)
			if err != nil {
				b.Fatal(err)
			}
			wall := func(bin string, env ...string) time.Duration {
				cmd := exec.Command(bin, ex.args...)
				cmd.Env = append(append(os.Environ(), mpi.EnvNP+"="+strconv.Itoa(ex.np)), env...)
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", bin, err, out)
				}
				return time.Since(t0)
			}
			base, err := buildBaseline(ctx, prog, in, ts, dir, nil)
			if err != nil {
				b.Fatal(err)
			}
			traced, err := buildPlain(ctx, prog, dir, nil)
			if err != nil {
				b.Fatal(err)
			}
			plainBody := math.Inf(1)
			var vb *timingBinary
			if len(plan.apart) > 0 {
				if vb, err = buildTiming(ctx, prog, in, ts, plan, dir, nil, true); err != nil {
					b.Fatal(err)
				}
			}
			bestVec := math.Inf(1)
			countEnv := []string{probe.EnvN + "=" + strconv.Itoa(len(in.Regions)+1), probe.EnvOut + "=" + filepath.Join(dir, "c.json")}
			var bestPlain, bestCount time.Duration = 1 << 62, 1 << 62
			var plainRuns, timedRuns, plainBodies []float64 // by round
			var best *measured
			var all []*measured
			baseMain := math.Inf(1)
			b.ResetTimer()
			runs := []func(){
				func() {
					d := wall(plain)
					bestPlain = min(bestPlain, d)
					plainRuns = append(plainRuns, float64(d))
				},
				func() {
					_, bm, err := r.runBaseline(ctx, base, ex.np)
					if err != nil {
						b.Fatal(err)
					}
					baseMain = min(baseMain, bm)
				},
				func() { bestCount = min(bestCount, wall(counting, countEnv...)) },
				func() {
					ns, err := r.runPlain(ctx, traced)
					if err != nil {
						b.Fatal(err)
					}
					if ns > 0 {
						plainBody = min(plainBody, ns)
					}
					plainBodies = append(plainBodies, ns)
				},
				func() {
					m, err := r.runTimed(ctx, "timed", tb, count, ex.np)
					if err != nil {
						b.Fatal(err)
					}
					if best == nil || m.wallNs < best.wallNs {
						best = m
					}
					all = append(all, m)
					timedRuns = append(timedRuns, m.wallNs)
				},
			}
			if vb != nil {
				runs = append(runs, func() {
					m, err := r.runTimed(ctx, "vectors", vb, count, ex.np)
					if err != nil {
						b.Fatal(err)
					}
					bestVec = min(bestVec, m.wallNs)
				})
			}
			for i := range b.N {
				// Each round starts with a different binary: the first run
				// of a round is often slower (the machine settling after
				// the previous process), which must not fall on one binary.
				for j := range runs {
					runs[(i+j)%len(runs)]()
				}
			}
			a := &aggregator{in: in, plan: plan, m: *best, costs: *best.counts.Costs}
			a.run()
			a.fastestRuns(all)
			t := a.totals()
			b.ReportMetric(best.wallNs/float64(bestPlain), "overhead")
			// The same ratio within each round, its median: a program
			// whose runs fall into a fast and a slow mode (pingpong's
			// hand-overs on a busy host) can give the plain binary one
			// fast run that the timed one, a minute apart, does not get.
			ratios := make([]float64, len(timedRuns))
			for i := range ratios {
				ratios[i] = timedRuns[i] / plainRuns[i]
			}
			b.ReportMetric(median(ratios), "overhead-paired-median")
			b.ReportMetric(float64(bestCount)/float64(bestPlain), "count-overhead")
			if vb != nil {
				b.ReportMetric(bestVec/float64(bestPlain), "vectors-overhead")
			}
			// Own times and MPI are summed over ranks, as are the plain
			// binary's bodies: with np ranks busy all along (pingpong's
			// two), np times main.
			if !math.IsInf(plainBody, 1) {
				b.ReportMetric(100*(t.AccountedNs-plainBody)/plainBody, "plain-accounted-err-%")
			}
			b.ReportMetric(100*(t.AccountedNs/float64(ex.np)-baseMain)/baseMain, "accounted-err-%")
			// Each timed run's own times and MPI against the plain
			// binary's bodies of the same round, the median over rounds.
			var paired []float64
			for i, m := range all {
				if plainBodies[i] <= 0 {
					continue
				}
				one := &aggregator{in: in, plan: plan, m: *m, costs: *m.counts.Costs}
				one.run()
				paired = append(paired, 100*(one.totals().AccountedNs-plainBodies[i])/plainBodies[i])
			}
			if len(paired) > 0 {
				b.ReportMetric(median(paired), "plain-accounted-err-paired-median-%")
			}
		})
	}
}
