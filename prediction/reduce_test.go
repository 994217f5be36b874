package prediction

import (
	"path/filepath"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
)

// A reduced loop that calls a kernel with a loop of its own: the kernel's
// iterations follow its argument, so the predicted compute grows with the
// square of the particle count when -n doubles (the profile's time per
// call, charged per iteration of the caller, would only double it), and
// two ranks at twice the size take about what one rank takes at the
// profiled size.
func TestCalleeLoopsScaleWithArgs(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := func(n string) []string { return []string{"-n", n, "-steps", "3"} }
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/kernelcall", NP: []int{1}, Args: args("600"),
		ProfileArgs: args("600"), ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	interval := func(p int, n string) float64 {
		t.Helper()
		a := args(n)
		oracle.SetArgs(a)
		run, _, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, a, false)
		if err != nil {
			t.Fatal(err)
		}
		span, ok := run.Interval(1)
		if !ok {
			t.Fatal("no interval 1")
		}
		return span
	}
	base := interval(1, "600")
	if r := interval(1, "1200") / base; r < 3.5 || r > 4.3 {
		t.Errorf("P = 1: the interval at -n 1200 over -n 600 is %.2f; want about 4", r)
	}
	if r := interval(2, "1200") / base; r < 0.9 || r > 1.2 {
		t.Errorf("P = 2 at -n 1200 over P = 1 at -n 600 is %.2f; want about 1", r)
	}
}
