package prediction

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
)

// TestRepredict is a tool more than a test: it predicts again, with the
// code as it is now, a validation pass recorded on a machine that cannot
// be had again (a lent 16-core one), from the pass's own profiles and
// machine file, and prints each row's error now and as recorded.
//
//	REPREDICT=$PWD/docs/validation/dev16-2026-11-26 go test ./prediction -run TestRepredict -v
//
// REPREDICT is a folder of `predict validate --json` reports (NAME.json,
// NAME the example or EXAMPLE_big), their profiles (NAME.profile.json;
// REPREDICT_PROFILES names another folder) and local.yaml (REPREDICT_MACHINE
// names another file). Skipped without REPREDICT.
func TestRepredict(t *testing.T) {
	dir := os.Getenv("REPREDICT")
	if dir == "" {
		t.Skip("REPREDICT names no folder of validation reports")
	}
	machine, profiles := os.Getenv("REPREDICT_MACHINE"), os.Getenv("REPREDICT_PROFILES")
	if machine == "" {
		machine = filepath.Join(dir, "local.yaml")
	}
	if profiles == "" {
		profiles = dir
	}
	m, err := commmodel.LoadFile(machine)
	if err != nil {
		t.Fatal(err)
	}
	reports, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	found := 0
	for _, path := range reports {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if strings.HasSuffix(name, ".profile") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Args []string
			Rows []struct {
				P         int
				Actual    float64
				Predicted float64
			}
		}
		if err := json.Unmarshal(b, &rep); err != nil || len(rep.Rows) == 0 {
			continue // not a validation report
		}
		found++
		ex, _, _ := strings.Cut(name, "_") // heat_big, cg_defaults
		mp, oracle, err := prepare(context.Background(), SpeedupOptions{Dir: "..", Package: "./examples/" + ex, Args: rep.Args,
			Profile: filepath.Join(profiles, name+".profile.json")}, func(string, ...any) {})
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%-15s", name)
		for _, r := range rep.Rows {
			run, _, err := simulate(mp, oracle, m, r.P, 1, r.P, commmodel.Block, rep.Args, false)
			if err != nil {
				t.Fatal(err)
			}
			iv, ok := run.Interval(1)
			if !ok {
				t.Fatalf("%s: P=%d: the simulation never marks interval 1", name, r.P)
			}
			line += fmt.Sprintf(" | P=%d %+.1f%% (was %+.1f%%)", r.P, 100*(iv-r.Actual)/r.Actual, 100*(r.Predicted-r.Actual)/r.Actual)
		}
		fmt.Println(line)
	}
	if found == 0 {
		t.Fatalf("no validation reports in %s", dir)
	}
}
