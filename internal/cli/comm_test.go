package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -update flag rewrites golden files. Another test file of this
// package may define it too; package-level flag variables are set up
// before init functions run, so this only adds it when missing.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestCommGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"comm_ib_alltoall_8.golden", []string{"comm", "--machine", "ib-qdr", "--op", "alltoall", "--size", "1MiB", "--np", "8", "--placements", "1x8,2x4,4x2"}},
		{"comm_ib_alltoall_4.golden", []string{"comm", "--machine", "ib-qdr", "--op", "alltoall", "--size", "1MiB", "--np", "4", "--placements", "1x4,2x2,4x1"}},
		{"comm_ib_alltoall_2.golden", []string{"comm", "--machine", "ib-qdr", "--op", "alltoall", "--size", "1MiB", "--np", "2", "--placements", "1x2,2x1"}},
		{"comm_gige_allreduce_mpich.golden", []string{"comm", "--machine", "gige-smp", "--op", "allreduce", "--size", "64KiB", "--np", "16", "--rules", "mpich"}},
		{"comm_ib_leaders.golden", []string{"comm", "--machine", "ib-qdr", "--op", "alltoall", "--size", "64", "--np", "48", "--placements", "4x12", "--algorithm", "leaders", "--leaders", "4"}},
		{"comm_ib_plp.golden", []string{"comm", "--machine", "ib-qdr", "--op", "alltoall", "--size", "1KiB", "--np", "96", "--placements", "8x12", "--algorithm", "leaders"}},
		{"comm_json.golden", []string{"comm", "--machine", "ib-qdr", "--op", "bcast", "--size", "4KiB", "--np", "6", "--placements", "1x6,6x1", "--order", "round-robin", "--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Main(tc.args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			golden(t, tc.name, out.Bytes())
		})
	}
}

func TestCommErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"comm", "--size", "lots"}, 2, "bad size"},
		{[]string{"comm", "--op", "scan"}, 2, "unknown collective"},
		{[]string{"comm", "--placements", "2by4"}, 2, "want NODESxPPN"},
		{[]string{"comm", "--np", "8", "--placements", "1x4"}, 1, "holds 4 ranks"},
		{[]string{"comm", "--machine", "nowhere"}, 1, "no preset"},
		{[]string{"comm", "--np", "8", "--placements", "1x8", "--algorithm", "ring"}, 1, "no algorithm"},
		{[]string{"comm", "--rules", "lam"}, 2, "want one of openmpi, mpich, goroutine"},
	} {
		var out, errb bytes.Buffer
		code := Main(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d with %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
