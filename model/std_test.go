package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestStd builds and checks the control tree of every function of the
// standard library: no panics, no sanity failures. It prints how many
// regions of each kind it found.
func TestStd(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the whole standard library; skipped with -short")
	}
	start := time.Now()
	pkgs, err := LoadPackages(Config{}, "std")
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Now()
	prog, spkgs := BuildSSA(pkgs)
	built := time.Now()
	p, err := Build(prog, pkgs, spkgs)
	if err != nil {
		for _, e := range unjoin(err) {
			t.Error(e)
		}
	}
	modelled := time.Now()
	counts := map[Kind]int{}
	leaves := map[LeafKind]int{}
	failures := 0
	for _, f := range p.Funcs {
		if err := f.Check(); err != nil {
			if failures < 20 {
				t.Error(err)
			}
			failures++
		}
		f.Walk(func(r *Region) {
			counts[r.Kind]++
			for _, l := range r.Leaves {
				leaves[l.Kind]++
			}
		})
	}
	if failures > 0 {
		t.Errorf("%d of %d functions fail the sanity check", failures, len(p.Funcs))
	}
	if len(p.Funcs) < 20000 {
		t.Errorf("only %d functions in std; expected about 27,000", len(p.Funcs))
	}
	if counts[Improper] == 0 || counts[NaturalLoop] == 0 || counts[Case] == 0 {
		t.Errorf("std should have improper, natural-loop and case regions: %v", counts)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d packages, %d functions (load %v, SSA %v, trees %v)\n", len(p.Packages), len(p.Funcs),
		loaded.Sub(start).Round(time.Millisecond), built.Sub(loaded).Round(time.Millisecond), modelled.Sub(built).Round(time.Millisecond))
	for _, k := range Kinds {
		fmt.Fprintf(&b, "  %-13s %7d\n", k, counts[k])
	}
	for k := Compute; k <= MPICall; k++ {
		fmt.Fprintf(&b, "  leaf %-8s %7d\n", k, leaves[k])
	}
	t.Log("\n" + b.String())
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
