package callers

import (
	"runtime"
	"testing"
)

//go:noinline
func outer(pcs []uintptr) int { return middle(pcs) }

//go:noinline
func middle(pcs []uintptr) int { return PCs(pcs) }

// PCs names the same functions as runtime.Callers, frame by frame, from
// its caller outwards.
func TestPCsFollowTheCallers(t *testing.T) {
	var pcs [8]uintptr
	n := outer(pcs[:])
	var names []string
	for _, pc := range pcs[:n] {
		names = append(names, runtime.FuncForPC(pc-1).Name())
	}
	want := []string{"middle", "outer", "TestPCsFollowTheCallers"}
	if len(names) < len(want) {
		t.Fatalf("frames %q, want at least %q", names, want)
	}
	for i, w := range want {
		if names[i] != "github.com/parpredict/parpredict/internal/callers."+w {
			t.Errorf("frame %d is %s, want %s (all: %q)", i, names[i], w, names)
		}
	}
	if m := outer(pcs[:2]); m != 2 {
		t.Errorf("with room for 2 addresses PCs stored %d", m)
	}
}
