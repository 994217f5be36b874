package profiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const minimalProfile = `{"format": "parpredict-profile", "version": 3, "meta": {"np": 1},
 "regions": [{"id": "main.main:func@main.go:+0:1", "kind": "func", "execs": 1, "timed": true, "totalNs": 10, "ownNs": 10},
  {"id": "main.main:loop@main.go:+2:2", "kind": "loop", "execs": 1, "iters": 5, "trips": {"min": 5, "max": 5, "mean": 5, "std": 0}},
  {"id": "main.main:if@main.go:+3:3/then", "kind": "then", "execs": 2, "prob": 0.4}],
 "mpi": [{"site": "main.go:9", "op": "Allreduce", "calls": 1, "totalNs": 3}],
 "contention": {"ppn": [1, 2], "total": [1, 1.1], "regions": {"main.main:loop@main.go:+2:2": [1, 1.2]},
  "rankTrips": {"main.main:loop@main.go:+2:2": [[], [3, 7]]}}}`

// TestParseRefusesDamage checks that a damaged profile is refused with the
// field, or the line and column, at fault.
func TestParseRefusesDamage(t *testing.T) {
	if _, err := Parse("ok.json", []byte(minimalProfile)); err != nil {
		t.Fatalf("minimal profile: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"prob": 0.4`, `"prob": 1.4`, "prob 1.4 is not between 0 and 1"},
		{`"kind": "loop"`, `"kind": "lop"`, `unknown kind "lop"`},
		{`"iters": 5`, `"iters": -5`, "negative execs or iters"},
		{`"min": 5, "max": 5`, `"min": 6, "max": 5`, "trips"},
		{`"total": [1, 1.1]`, `"total": [1]`, "1 totals for 2 ppn"},
		{`"ppn": [1, 2]`, `"ppn": [2, 1]`, "contention.ppn must be increasing"},
		{`[1, 1.2]`, `[1]`, "1 ratios for 2 ppn"},
		{`"main.main:if@main.go:+3:3/then"`, `"main.main:loop@main.go:+2:2"`, "the id appears twice"},
		{`[[], [3, 7]]`, `[[3, 7]]`, "1 rows for 2 ppn"},
		{`[[], [3, 7]]`, `[[], [3, 7, 1]]`, "3 ranks' means in the run at 2 ranks"},
		{`[[], [3, 7]]`, `[[], [3, -7]]`, "rankTrips[main.main:loop@main.go:+2:2][1][1] = -7 is negative"},
		{`"calls": 1`, `"calls": -1`, "negative calls"},
		{`"execs": 2,`, `"execs": "two",`, "bad.json:4:"},
		{`"version": 3,`, `"version": 3`, "bad.json:1:"},
		{`"version": 3`, `"version": 2`, "profile version 2"},
	} {
		data := strings.Replace(minimalProfile, tc.from, tc.to, 1)
		if data == minimalProfile {
			t.Fatalf("%q not in the minimal profile", tc.from)
		}
		_, err := Parse("bad.json", []byte(data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: error %v, want one saying %q", tc.from, tc.to, err, tc.want)
		}
	}
}

// FuzzParse checks that no input makes Parse panic, and that a profile it
// accepts answers region lookups.
func FuzzParse(f *testing.F) {
	f.Add([]byte(minimalProfile))
	f.Add([]byte(`{"format": "parpredict-profile", "version": 3, "regions": [{"id": "x", "kind": "loop", "prob": -0}]}`))
	f.Add([]byte(`{"format": "parpredict-profile", "version": 3, "contention": {"ppn": [1], "total": [1], "regions": {"x": [1]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, r := range p.Regions {
			if got, ok := p.Region(r.ID); !ok || got.ID != r.ID {
				t.Fatalf("region %q not found by its id", r.ID)
			}
		}
	})
}

// A profile with one region ID twice is not written: Load would refuse
// it, and profiling again would make it again.
func TestSaveRefusesDuplicateIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	p := &Profile{Format: Format, Version: Version, Regions: []Region{
		{ID: "main.Step$1:bb@main.go:+0:68", Func: "main.Step$1", File: "main.go", Line: 12},
		{ID: "main.Step$1:bb@main.go:+0:68", Func: "main.Step$1", File: "main.go", Line: 13},
	}}
	err := p.Save(path)
	if err == nil || !strings.Contains(err.Error(), "two regions have the id main.Step$1:bb@main.go:+0:68") {
		t.Fatalf("Save: %v, want a refusal naming the id", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the profile was written: %v", err)
	}
}
