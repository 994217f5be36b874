package loopnest

import (
	"testing"

	"github.com/parpredict/parpredict/model"
)

// TestStandardLibrary runs the analysis over real code with every loop
// shape Go produces (goto, labeled loops, range over functions, generics)
// and checks the invariants the interpreter relies on.
func TestStandardLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and analyses several standard packages")
	}
	pkgs := []string{"strconv", "strings", "sort", "bytes", "math/big", "go/scanner", "go/parser", "go/types", "text/tabwriter", "text/template/parse", "compress/flate", "regexp/syntax", "unicode/utf8", "fmt", "encoding/json", "net/url", "image/jpeg", "crypto/sha256"}
	mp, err := model.Load(model.Config{}, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromModel(mp, nil)
	if err != nil {
		t.Fatal(err)
	}
	loops, reduced, counted := 0, 0, 0
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			loops++
			if l.ID == "" || l.Region == nil {
				t.Errorf("%s: loop without ID or region", f.Fn)
			}
			if l.Trip != nil {
				counted++
			}
			d := l.Reduction
			switch {
			case d.Reducible && d.Nest == nil, !d.Reducible && d.Nest != nil:
				t.Errorf("%s: inconsistent decision", l.ID)
			case d.Nest == l && (l.Trip == nil || l.DataDependent || l.UpperBound || len(l.MPI) > 0):
				t.Errorf("%s: reduced nest root without an exact trip count", l.ID)
			case !d.Reducible && len(d.Reasons) == 0:
				t.Errorf("%s: not reduced, no reason", l.ID)
			}
			if d.Nest == l {
				reduced++
			}
			if l.Parent != nil && l.Depth != l.Parent.Depth+1 {
				t.Errorf("%s: depth %d under depth %d", l.ID, l.Depth, l.Parent.Depth)
			}
		}
	}
	t.Logf("%d functions with loops, %d loops, %d with trip counts, %d reduced nests", len(p.Funcs), loops, counted, reduced)
	if loops < 500 {
		t.Errorf("only %d loops analysed", loops)
	}
}
