package prediction

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// TestRowLoopImbalance predicts mandelbrot's block distribution over 4
// ranks from a one-rank profile: its row loop counts k from 0 on every
// rank and computes row first+k, so each rank's rows are costed from the
// profile's times of those rows. The ranks' predicted compute must be
// shared about as the pixel iterations the real program reports per rank
// are (the middle bands hold the set and most of the work).
func TestRowLoopImbalance(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	args := []string{"-width", "96", "-height", "96", "-maxiter", "2000", "-check=false"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/mandelbrot", Args: args,
		ProfileOut: filepath.Join(t.TempDir(), "mandelbrot.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	const p = 4
	// One rank per node: no node contention in the way.
	run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"run", "./examples/mandelbrot", "-np", strconv.Itoa(p)}, args...)...)
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running mandelbrot: %v\n%s", err, out)
	}
	match := regexp.MustCompile(`iterations per rank: \[([0-9 ]+)\]`).FindSubmatch(out)
	if match == nil {
		t.Fatalf("no per-rank iterations in the output:\n%s", out)
	}
	var work []float64
	total := 0.0
	for _, f := range strings.Fields(string(match[1])) {
		n, _ := strconv.ParseFloat(f, 64)
		work, total = append(work, n), total+n
	}
	// Each rank's time in interval 1, the row loop alone.
	rows := make([]float64, p)
	predTotal := 0.0
	for r, marks := range run.Marks {
		for _, mk := range marks {
			if mk.ID == 1 && mk.Begin {
				rows[r] -= mk.T
			} else if mk.ID == 1 {
				rows[r] += mk.T
			}
		}
		predTotal += rows[r]
	}
	// Pixel iterations leave out each pixel's own overhead (the cheap
	// edge bands have many pixels of 1-3 iterations), hence the margin;
	// costing every row at the mean (a quarter each) is far outside it.
	for r := range p {
		got, want := rows[r]/predTotal, work[r]/total
		if d := got - want; d > 0.08 || d < -0.08 {
			t.Errorf("rank %d: predicted share of the row loop %.3f, share of the pixel iterations %.3f", r, got, want)
		}
	}
	if work[1]/total < 0.3 {
		t.Errorf("the middle ranks hold %.2f of the work: the image is not unbalanced enough to test", work[1]/total)
	}
}

// TestFineCyclicLoopImbalance predicts cyclicprimes over 2 ranks from a
// one-rank profile: its candidates are dealt out cyclically and an
// iteration is too fine for a tick in the timed runs, so its vector comes
// from runs of its own (profiler: fine vec loops). Rank 1 gets the odd
// candidates, nearly all the trial divisions; costed at the loop's mean,
// each rank would get half.
func TestFineCyclicLoopImbalance(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "200000"}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/cyclicprimes", Args: args,
		ProfileOut: filepath.Join(t.TempDir(), "cyclicprimes.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	const p = 2
	// One rank per node: no node contention in the way.
	run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The ranks' compute: the interval also holds rank 0's wait for rank
	// 1 in the Reduce. Before the loop there is only flag parsing.
	loop := []float64{run.Ranks[0].Compute, run.Ranks[1].Compute}
	if share := loop[1] / (loop[0] + loop[1]); share < 0.85 {
		t.Errorf("rank 1's predicted share of the candidates loop %.3f (%.3g of %.3g s), want above 0.85: it tests the odd candidates", share, loop[1], loop[0]+loop[1])
	}
}

// TestFineResidues: a fine vector is taken for a cyclic distribution only
// where the classes of its iterations modulo the step differ by more than
// fineNoise; alternating costs of 13 % (an allocator's cadence) do not.
func TestFineResidues(t *testing.T) {
	primes := &fineResidues{times: []float64{1, 40, 1, 90, 1, 30, 1, 70}}
	lines := &fineResidues{times: []float64{100, 113, 100, 113, 100, 113, 100, 113}}
	for _, tc := range []struct {
		name string
		f    *fineResidues
		step int64
		want bool
	}{
		{"odd candidates on rank 1", primes, 2, true},
		{"four ranks", primes, 4, true},
		{"lines, two ranks", lines, 2, false},
		{"lines, four ranks", lines, 4, false},
		{"more ranks than iterations", lines, 16, false},
	} {
		if got := tc.f.unbalanced(tc.step); got != tc.want {
			t.Errorf("%s: unbalanced(%d) = %v, want %v", tc.name, tc.step, got, tc.want)
		}
	}
}
