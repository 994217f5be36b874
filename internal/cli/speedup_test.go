package cli

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
)

func TestParseCounts(t *testing.T) {
	cases := []struct {
		in   string
		def  int
		want []int
		err  string
	}{
		{"", 12, []int{1, 2, 4, 8, 12}, ""},
		{"", 8, []int{1, 2, 4, 8}, ""},
		{"1:4", 0, []int{1, 2, 3, 4}, ""},
		{"2, 4,8", 0, []int{2, 4, 8}, ""},
		{"", 0, nil, "no counts"},
		{"4:2", 0, nil, "FROM:TO"},
		{"0,2", 0, nil, "not a positive count"},
		{"x", 0, nil, "not a positive count"},
	}
	for _, c := range cases {
		got, err := parseCounts(c.in, c.def)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseCounts(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseCounts(%q, %d) = %v, %v; want %v", c.in, c.def, got, err, c.want)
		}
	}
}

// TestProfileArgs: --profile-args not given profiles with the predicted
// arguments (nil); given empty, with none (an empty list, not nil).
func TestProfileArgs(t *testing.T) {
	if got := profileArgs(false, ""); got != nil {
		t.Errorf("not given: %q, want nil", got)
	}
	if got := profileArgs(true, ""); got == nil || len(got) != 0 {
		t.Errorf("given empty: %#v, want an empty list", got)
	}
	if got := profileArgs(true, " -n  400 "); !slices.Equal(got, []string{"-n", "400"}) {
		t.Errorf("given \" -n  400 \": %q", got)
	}
}

func TestSpeedupUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"speedup", "./examples/heat", "--csv", "--json"},
		{"speedup", "./examples/heat", "--np", "0"},
		{"speedup", "./examples/heat", "--order", "diagonal"},
		{"speedup", "./examples/heat", "--np", "1,2", "--at", "3"},
		{"validate", "./examples/heat", "--reps", "0"},
		{"validate", "./examples/heat", "--max-steps", "-1"},
		{"speedup", "./examples/heat", "--max-steps", "-1"},
		{"validate", "./examples/heat", "--calibrate", "--machine", "ib-qdr"},
		{"speedup"},
	} {
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}

// TestSpeedupListsFailedConfigurations: a program that deadlocks from two
// ranks on gets its table for P = 1, the per-rank deadlock report of P =
// 3 under it, and exit status 1.
func TestSpeedupListsFailedConfigurations(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	var out, errb bytes.Buffer
	args := []string{"speedup", "../../prediction/testdata/deadlock", "--np", "1,3", "--ppn", "4", "--machine", "ib-qdr",
		"--quiet", "--profile", filepath.Join(t.TempDir(), "deadlock.profile.json")}
	if code := Main(args, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errb.String())
	}
	for _, want := range []string{"\n  1          1x1 ", "failed: P = 3 (1x3): interpreter: deadlock", "  rank 2 waits in Recv(source 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "1 of 2 configurations failed") {
		t.Errorf("stderr %q", errb.String())
	}
}

// TestOutputsCheckedFirst: an output file that cannot be written (a
// missing directory, a plot format that is not written) is a usage error
// at once, before any profiling, calibration or simulation, and names the
// flag.
func TestOutputsCheckedFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"speedup", "../../examples/heat", "--plot", "speedup.gif"}, `--plot: plots: speedup.gif: extension ".gif"`},
		{[]string{"speedup", "../../examples/heat", "--plot", filepath.Join(missing, "s.png")}, "--plot " + filepath.Join(missing, "s.png") + ": directory " + missing + " does not exist"},
		{[]string{"speedup", "../../examples/heat", "--timeline", filepath.Join(missing, "t.json")}, "--timeline"},
		{[]string{"speedup", "../../examples/heat", "--profile", filepath.Join(missing, "p.json")}, "--profile"},
		{[]string{"validate", "../../examples/heat", "--plot", "v.jpg"}, "--plot"},
		{[]string{"profile", "../../examples/heat", "--out", filepath.Join(missing, "p.json")}, "--out"},
		{[]string{"bench", "--out", filepath.Join(missing, "m.yaml")}, "--out"},
		{[]string{"bench", "--out", t.TempDir()}, "is a directory"},
	} {
		var out, errb bytes.Buffer
		if code := Main(tt.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

// TestDefaultCountsCoverTheMachine: without --np the sweep goes up to
// every core of every node (ib-qdr: 16 nodes of 12 cores), not one node's.
func TestDefaultCountsCoverTheMachine(t *testing.T) {
	for _, tc := range []struct {
		machine string
		want    []int
	}{
		{"ib-qdr", []int{1, 2, 4, 8, 16, 32, 64, 128, 192}},
		{"gige-smp", nil},
	} {
		m, err := commmodel.Load(tc.machine)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseCounts("", machineCores(m))
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == nil {
			if last := got[len(got)-1]; last != m.Nodes*m.SocketsPerNode*m.CoresPerSocket || last <= m.CoresPerNode() {
				t.Errorf("%s: default counts %v end at %d, want the machine's %d cores", tc.machine, got, last, m.Nodes*m.SocketsPerNode*m.CoresPerSocket)
			}
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: default counts %v, want %v", tc.machine, got, tc.want)
		}
	}
}

// TestValidateCountsDefaultToTheCores: validate's real runs default to
// this computer's cores (and the powers of two below).
func TestValidateCountsDefaultToTheCores(t *testing.T) {
	got, err := validateCounts("")
	if err != nil || got[0] != 1 || got[len(got)-1] != runtime.NumCPU() {
		t.Errorf("default counts %v, %v; want 1 up to the %d cores", got, err, runtime.NumCPU())
	}
	if got, err := validateCounts("1,2,4,8"); err != nil || !slices.Equal(got, []int{1, 2, 4, 8}) {
		t.Errorf("--np 1,2,4,8: %v, %v", got, err)
	}
}

// TestRefusalNamesRealFlags: a sweep the machine cannot hold is refused
// before any profiling, and every flag the refusal suggests exists
// (--oversubscribe was suggested before it was a flag).
func TestRefusalNamesRealFlags(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"speedup", "../../examples/heat", "--machine", "local", "--np", "4", "--quiet"}
	if code := Main(args, &out, &errb); code == 0 || !strings.Contains(errb.String(), "no configuration fits the machine") {
		t.Fatalf("%v: exit %d, stderr %q; want the refusal", args, code, errb.String())
	}
	flags := newSpeedupCmd(&IO{Out: &out, Err: &errb}).Flags()
	for _, w := range strings.Fields(errb.String()) {
		name, ok := strings.CutPrefix(strings.Trim(w, "(),;:"), "--")
		if ok && flags.Lookup(name) == nil {
			t.Errorf("the refusal suggests --%s, which speedup does not have: %s", name, errb.String())
		}
	}
}
