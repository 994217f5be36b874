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
	"github.com/parpredict/parpredict/interpreter"
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
// names another file). Skipped without REPREDICT. With REPREDICT_MODULE,
// the reports are of programs in that module (a folder of
// docs/validation/outside-2026-11-26): each report's program is predicted
// from there, and only the reports whose program that module has.
func TestRepredict(t *testing.T) {
	dir := os.Getenv("REPREDICT")
	if dir == "" {
		t.Skip("REPREDICT names no folder of validation reports")
	}
	machine, profiles, module := os.Getenv("REPREDICT_MACHINE"), os.Getenv("REPREDICT_PROFILES"), os.Getenv("REPREDICT_MODULE")
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
			Program string
			Args    []string
			Rows    []struct {
				P         int
				Actual    float64
				Predicted float64
			}
		}
		if err := json.Unmarshal(b, &rep); err != nil || len(rep.Rows) == 0 {
			continue // not a validation report
		}
		ex, _, _ := strings.Cut(name, "_") // heat_big, cg_defaults
		dir, pkg := "..", "./examples/"+ex
		if module != "" {
			dir, pkg = module, rep.Program
			files, _ := filepath.Glob(filepath.Join(module, pkg, "*.go"))
			if len(files) == 0 || pkg == "." && name != filepath.Base(module) {
				continue // another module's program
			}
		}
		found++
		mp, oracle, err := prepare(context.Background(), SpeedupOptions{Dir: dir, Package: pkg, Args: rep.Args,
			Profile: filepath.Join(profiles, name+".profile.json")}, func(string, ...any) {})
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%-15s", name)
		for _, r := range rep.Rows {
			run, _, err := simulate(mp, oracle, m, r.P, 1, r.P, commmodel.Block, rep.Args, interpreter.Options{})
			if err != nil {
				t.Fatal(err)
			}
			iv, ok := run.Interval(1)
			if !ok {
				iv = run.Makespan // validated with --interval 0
			}
			line += fmt.Sprintf(" | P=%d %+.1f%% (was %+.1f%%)", r.P, 100*(iv-r.Actual)/r.Actual, 100*(r.Predicted-r.Actual)/r.Actual)
		}
		fmt.Println(line)
	}
	if found == 0 {
		t.Fatalf("no validation reports in %s", dir)
	}
}
