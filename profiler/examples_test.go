package profiler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestExamplesBalance profiles the examples whose row loops the ParJava
// balance test must classify: matmul's rows all cost the same, while
// mandelbrot's rows near the set cost far more than the others. The
// examples live in ../examples (or $PARPREDICT_EXAMPLES); each is copied
// into a module of its own so that this test never writes beside them.
func TestExamplesBalance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the examples several times")
	}
	for _, tc := range []struct {
		name     string
		args     []string
		fn       string // function holding the row loop
		balanced bool
	}{
		{"matmul", []string{"-n", "300", "-check=false"}, "main.multiplyRows", true},
		{"mandelbrot", []string{"-width", "200", "-height", "200", "-check=false"}, "main.run", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			examples := os.Getenv("PARPREDICT_EXAMPLES") // another checkout's examples
			if examples == "" {
				examples = filepath.Join("..", "examples")
			}
			src := filepath.Join(examples, tc.name)
			if _, err := os.Stat(src); err != nil {
				t.Skipf("no %s here yet (examples branch not merged): %v", src, err)
			}
			dir := copyModule(t, src, tc.name)
			rowLoop := func(p *Profile) *Region {
				for i := range p.Regions {
					r := &p.Regions[i]
					parent, ok := p.Region(r.Parent)
					if r.Func == tc.fn && r.Kind == Loop && r.Imbalance != nil && ok && parent.Kind == FuncBody {
						return r
					}
				}
				return nil
			}
			p := profileAgainIfNeeded(t, func() (*Profile, error) {
				return Run(context.Background(), Options{Dir: dir, Package: ".", Args: tc.args, Repeat: 5})
			}, func(p *Profile) string {
				if row := rowLoop(p); row != nil && row.Imbalance.Balanced != tc.balanced {
					return fmt.Sprintf("%s: balanced = %v (D/Tmean %.3f over %d runs), want %v",
						row.ID, row.Imbalance.Balanced, row.Imbalance.Ratio, row.Imbalance.Runs, tc.balanced)
				}
				return ""
			})
			row := rowLoop(p)
			if row == nil {
				t.Fatalf("no outermost loop with per-iteration times in %s", tc.fn)
			}
			if row.Imbalance.Balanced != tc.balanced {
				t.Errorf("%s: balanced = %v (D/Tmean %.3f over %d runs), want %v",
					row.ID, row.Imbalance.Balanced, row.Imbalance.Ratio, row.Imbalance.Runs, tc.balanced)
			}
		})
	}
}

// profileAgainIfNeeded profiles with run and, while timingComplaint finds
// something wrong with what the profile's timings say, logs it and
// profiles again, up to profileTries profiles, returning the last for the
// test to check. Timings can be spoiled in every run of one profile by
// the machine (another process, CI's other packages, a virtual machine's
// second core taken away for a while); a real misclassification or
// accounting error shows in every profile and still fails.
func profileAgainIfNeeded(t *testing.T, run func() (*Profile, error), timingComplaint func(*Profile) string) *Profile {
	t.Helper()
	var p *Profile
	for try := 1; ; try++ {
		var err error
		if p, err = run(); err != nil {
			t.Fatal(err)
		}
		c := timingComplaint(p)
		if c == "" || try == profileTries {
			return p
		}
		t.Logf("profile %d: %s; profiling again", try, c)
	}
}

// profileTries is how many profiles profileAgainIfNeeded makes at most.
// Two were not enough once on the 2-core VM with CI's other packages
// running: a balanced loop's iterations took 121.5 or 129 us by turns,
// D/Tmean 0.102.
const profileTries = 3
