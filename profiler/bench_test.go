package profiler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parpredict/parpredict/profiler/probe"
)

// BenchmarkOverhead runs every example plain and instrumented (timers as
// the profiler would place them, mpi trace on) and reports the ratio of
// their shortest wall times as "overhead" (the target is at most 1.2),
// and how far the own times plus MPI time of the instrumented run fall
// from the plain run's time as "accounted-err-%":
//
//	go test -run '^$' -bench Overhead -benchtime 5x ./profiler
func BenchmarkOverhead(b *testing.B) {
	for _, ex := range []struct {
		name string
		args []string
	}{
		{"matmul", []string{"-n", "300", "-check=false"}},
		{"heat", []string{"-check=false"}},
		{"transpose", []string{"-check=false"}},
		{"mandelbrot", []string{"-check=false"}},
		{"cg", []string{"-check=false"}},
		{"pingpong", nil},
	} {
		b.Run(ex.name, func(b *testing.B) {
			src := filepath.Join("..", "examples", ex.name)
			if _, err := os.Stat(src); err != nil {
				b.Skip("no example here:", err)
			}
			dir := b.TempDir()
			p, err := Run(context.Background(), Options{Package: src, Args: ex.args})
			if err != nil {
				b.Fatal(err)
			}
			prog, err := LoadProgram(".", src)
			if err != nil {
				b.Fatal(err)
			}
			ts, err := ModelTargets(prog)
			if err != nil {
				b.Fatal(err)
			}
			in, err := Instrument(prog, ts)
			if err != nil {
				b.Fatal(err)
			}
			plain, err := Build(context.Background(), prog, nil, dir, "plain")
			if err != nil {
				b.Fatal(err)
			}
			instr, err := Build(context.Background(), prog, in, dir, "instr")
			if err != nil {
				b.Fatal(err)
			}
			timed := map[int]bool{}
			for _, r := range in.Regions {
				if reg, ok := p.Region(r.ID); ok && reg.Timed {
					timed[r.Index] = true
				}
			}
			env := []string{
				probe.EnvN + "=" + strconv.Itoa(len(in.Regions)+1),
				probe.EnvOut + "=" + filepath.Join(dir, "counts.json"),
				probe.EnvTimed + "=" + indexList(timed),
				"PARPREDICT_TRACE=" + filepath.Join(dir, "trace.json"),
			}
			best := func(bin string, env []string) time.Duration {
				cmd := exec.Command(bin, ex.args...)
				cmd.Env = append(os.Environ(), env...)
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", bin, err, out)
				}
				return time.Since(t0)
			}
			var bp, bi time.Duration = 1 << 62, 1 << 62
			b.ResetTimer()
			for range b.N {
				bp = min(bp, best(plain, nil))
				bi = min(bi, best(instr, env))
			}
			b.ReportMetric(float64(bi)/float64(bp), "overhead")
			b.ReportMetric(100*(p.Totals.AccountedNs-float64(bp))/float64(bp), "accounted-err-%")
		})
	}
}
