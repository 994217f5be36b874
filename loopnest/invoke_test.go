package loopnest

import (
	"strings"
	"testing"
)

// TestInterfaceCallsResolved checks that a call through an interface or a
// function value is what the functions it may run do: a loop calling
// only computing methods or kernels is reduced; one whose method or
// closure calls MPI holds that MPI call; one whose method writes a
// package variable, whose interface no converted type implements, or
// whose function value may come from the standard library, is not
// reduced.
func TestInterfaceCallsResolved(t *testing.T) {
	p := load(t, "testdata/invoke")
	marks := markers(t, "testdata/invoke/invoke.go")
	for _, tc := range []struct {
		mark    string
		reduced bool
		mpi     string // an MPI call the loop must hold
		reason  string // in the reasons it is not reduced
	}{
		{"areas", true, "", ""},
		{"steps", false, "Barrier", "contains MPI"},
		{"counts", false, "", "store to package variable hits"},
		{"gets", false, "", "interface method Get (unresolved)"},
		{"apply", true, "", ""},
		{"each", false, "Barrier", "contains MPI"},
		{"calls", false, "", "dynamic call (unresolved)"},
		{"exprs", false, "", "store to package variable hits"},
		{"sweep", true, "", ""},
	} {
		t.Run(tc.mark, func(t *testing.T) {
			l := loopAt(t, p, marks[tc.mark])
			if got := l.Reduction.Nest == l; got != tc.reduced {
				t.Fatalf("loop %s reduced %v, want %v (reasons %v)", l.ID, got, tc.reduced, l.Reduction.Reasons)
			}
			if tc.mpi != "" && !hasSite(l.MPI, tc.mpi) {
				t.Errorf("MPI calls %+v, want %s", l.MPI, tc.mpi)
			}
			if tc.reason != "" && !strings.Contains(strings.Join(l.Reduction.Reasons, "; "), tc.reason) {
				t.Errorf("reasons %v, want one with %q", l.Reduction.Reasons, tc.reason)
			}
			if tc.mark == "areas" && !hasSite(l.Calls, "interface method Area -> invoke.(*Rect).Area, invoke.(Circle).Area") {
				t.Errorf("calls %+v: want the interface call named with the methods it was resolved to", l.Calls)
			}
		})
	}
}

func hasSite(sites []Site, name string) bool {
	for _, s := range sites {
		if s.Name == name {
			return true
		}
	}
	return false
}
