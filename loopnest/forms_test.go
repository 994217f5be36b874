package loopnest

import (
	"bufio"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"github.com/parpredict/parpredict/loopnest/testdata/forms"
	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/mpi"
)

// loadOnce loads a testdata or example package once per test binary.
var (
	loadMu    sync.Mutex
	loadCache = map[string]*Program{}
)

func load(t *testing.T, dir string) *Program {
	t.Helper()
	loadMu.Lock()
	defer loadMu.Unlock()
	if p, ok := loadCache[dir]; ok {
		return p
	}
	p, err := Load(model.Config{Dir: dir}, []string{"."}, nil)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	loadCache[dir] = p
	return p
}

var markerRE = regexp.MustCompile(`^\s*(?:for|\w+:).*// ([\w-]+)$`)

// markers maps each marker comment of a testdata file to its line.
func markers(t *testing.T, file string) map[string]int {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if m := markerRE.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = line
		}
	}
	return out
}

// loopAt finds the loop whose statement is on line.
func loopAt(t *testing.T, p *Program, line int) *Loop {
	t.Helper()
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			if p.Prog.Fset.Position(l.Pos).Line == line {
				return l
			}
		}
	}
	t.Fatalf("no loop on line %d", line)
	return nil
}

// flag letters: u upper bound, d data-dependent, r rank/size, R reduced
// (as or inside a nest), b test after the body.
func flagString(l *Loop) string {
	var b strings.Builder
	for _, f := range []struct {
		on bool
		c  byte
	}{{l.UpperBound, 'u'}, {l.DataDependent, 'd'}, {l.RankSize, 'r'}, {l.Reduction.Reducible, 'R'}, {l.BottomTest, 'b'}} {
		if f.on {
			b.WriteByte(f.c)
		}
	}
	return b.String()
}

func ints(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

func TestLoopForms(t *testing.T) {
	p := load(t, "testdata/forms")
	lines := markers(t, "testdata/forms/forms.go")
	n := func(b symbolic.Names, k string) int { return int(b[k]) }
	tests := []struct {
		marker string
		trip   string // "" when unknown
		flags  string
		// run calls the function with the binding's values; Hits[depth-1]
		// must then equal the loop's total iterations (at most, for upper
		// bounds). nil for loops that cannot be run here.
		run      func(symbolic.Names)
		bindings []symbolic.Names
		reason   string // a substring of the reasons when not reduced
	}{
		{"lt", "max(0, n)", "R", func(b symbolic.Names) { forms.LessThan(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 7}, {"n": -3}}, ""},
		{"le", "max(0, n+1)", "R", func(b symbolic.Names) { forms.LessEqual(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 7}, {"n": -1}, {"n": -5}}, ""},
		{"step2", "max(0, (hi-lo+1)/2)", "R", func(b symbolic.Names) { forms.StepTwo(n(b, "lo"), n(b, "hi")) },
			[]symbolic.Names{{"lo": 0, "hi": 10}, {"lo": 3, "hi": 10}, {"lo": 3, "hi": 4}, {"lo": 9, "hi": 2}, {"lo": -5, "hi": 0}}, ""},
		{"step3le", "max(0, (hi-lo+3)/3)", "R", func(b symbolic.Names) { forms.StepThreeLE(n(b, "lo"), n(b, "hi")) },
			[]symbolic.Names{{"lo": 0, "hi": 9}, {"lo": 1, "hi": 9}, {"lo": 5, "hi": 5}, {"lo": 6, "hi": 5}}, ""},
		{"desc", "max(0, n)", "R", func(b symbolic.Names) { forms.Descending(n(b, "n")) },
			[]symbolic.Names{{"n": 5}, {"n": 0}, {"n": -2}}, ""},
		{"descge", "max(0, (hi-lo+2)/2)", "R", func(b symbolic.Names) { forms.DescendingGE(n(b, "hi"), n(b, "lo")) },
			[]symbolic.Names{{"hi": 10, "lo": 0}, {"hi": 9, "lo": 0}, {"hi": 0, "lo": 0}, {"hi": 0, "lo": 3}}, ""},
		{"ne", "divexact(n, 1)", "R", func(b symbolic.Names) { forms.NotEqual(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 6}}, ""},
		{"rev", "max(0, n)", "R", func(b symbolic.Names) { forms.ReversedTest(n(b, "n")) },
			[]symbolic.Names{{"n": 4}, {"n": -4}}, ""},
		{"rangeint", "max(0, n)", "Rb", func(b symbolic.Names) { forms.RangeInt(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 9}, {"n": -2}}, ""},
		{"rangeslice", "len(s)", "R", func(b symbolic.Names) { forms.RangeSlice(make([]float64, n(b, "len(s)"))) },
			[]symbolic.Names{{"len(s)": 0}, {"len(s)": 5}}, ""},
		{"rangearray", "16", "R", func(symbolic.Names) { forms.RangeArray([16]int{}) },
			[]symbolic.Names{{}}, ""},
		{"rangestring", "len(s)", "u", func(b symbolic.Names) { forms.RangeString(strings.Repeat("é", n(b, "len(s)")/2)) },
			[]symbolic.Names{{"len(s)": 8}, {"len(s)": 0}}, "upper bound"},
		{"rangemap", "", "d", nil, nil, "data-dependent"},
		{"before", "max(0, hi-lo)", "R", func(b symbolic.Names) { forms.BoundBefore(n(b, "n"), n(b, "rank"), n(b, "size")) },
			[]symbolic.Names{{"n": 10, "rank": 0, "size": 3}, {"n": 10, "rank": 2, "size": 3}, {"n": 2, "rank": 1, "size": 4}}, ""},
		{"rankrows", "max(0, hi-lo)", "rR", nil,
			[]symbolic.Names{{"n": 10, "rank": 0, "size": 3}, {"n": 10, "rank": 2, "size": 3}}, ""},
		{"cyclic", "max(0, (n+size-rank-1)/size)", "rR", nil,
			[]symbolic.Names{{"n": 10, "rank": 0, "size": 3}, {"n": 10, "rank": 2, "size": 3}}, ""},
		{"lenbound", "max(0, len(a)-2)", "R", func(b symbolic.Names) { forms.LenBound(make([]int, n(b, "len(a)"))) },
			[]symbolic.Names{{"len(a)": 0}, {"len(a)": 1}, {"len(a)": 2}, {"len(a)": 9}}, ""},
		{"tri-outer", "max(0, n)", "R", func(b symbolic.Names) { forms.Triangular(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 6}}, ""},
		{"tri-inner", "max(0, i)", "R", nil, []symbolic.Names{{"i": 4}, {"i": 0}}, ""},
		{"utri-outer", "max(0, n)", "R", func(b symbolic.Names) { forms.UpperTriangular(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 7}}, ""},
		{"utri-inner", "max(0, n-i-1)", "R", nil, []symbolic.Names{{"n": 7, "i": 2}, {"n": 7, "i": 6}}, ""},
		{"break", "len(a)", "ud", func(b symbolic.Names) { forms.BreakOut(ints(n(b, "len(a)")), 3) },
			[]symbolic.Names{{"len(a)": 2}, {"len(a)": 8}}, "data-dependent"},
		{"breakidx", "max(0, n)", "u", func(b symbolic.Names) { forms.BreakOnIndex(n(b, "n")) },
			[]symbolic.Names{{"n": 5}, {"n": 50}}, "upper bound"},
		{"continue", "max(0, n)", "R", nil, []symbolic.Names{{"n": 5}}, ""},
		{"return", "len(a)", "ud", func(b symbolic.Names) { forms.Returns(ints(n(b, "len(a)"))) },
			[]symbolic.Names{{"len(a)": 4}}, "data-dependent"},
		{"lab-outer", "max(0, n)", "u", func(b symbolic.Names) { forms.Labeled(n(b, "n")) },
			[]symbolic.Names{{"n": 3}, {"n": 20}}, "upper bound"},
		{"lab-inner", "max(0, n)", "u", nil, nil, "upper bound"},
		{"while", "", "d", nil, nil, "data-dependent"},
		{"maxit", "max(0, maxit)", "ud", func(b symbolic.Names) { forms.ConvergeCounted(n(b, "maxit"), 0.01) },
			[]symbolic.Names{{"maxit": 3}, {"maxit": 100}}, "data-dependent"},
		{"whilecounter", "max(0, n)", "R", func(b symbolic.Names) { forms.WhileCounter(n(b, "n")) },
			[]symbolic.Names{{"n": 3}, {"n": -1}}, ""},
		{"csr-rows", "max(0, n)", "R", nil, []symbolic.Names{{"n": 3}}, ""},
		{"csr-inner", "", "dR", nil, nil, ""},
		{"flag", "max(0, *n)", "R", nil, []symbolic.Names{{"*n": 5}}, ""},
		{"min", "max(0, min(n, chunk))", "R", func(b symbolic.Names) { forms.MinBound(n(b, "n"), n(b, "chunk")) },
			[]symbolic.Names{{"n": 10, "chunk": 4}, {"n": 3, "chunk": 4}, {"n": -1, "chunk": 4}}, ""},
		{"mpi-outer", "max(0, steps)", "", nil, nil, "contains MPI: Allreduce"},
		{"mpi-inner", "4", "R", nil, nil, ""},
		{"steer", "len(a)", "", nil, nil, "decides a branch"},
		{"steered", "max(0, k)", "d", nil, nil, "data-dependent"},
		{"passed", "len(a)", "R", nil, nil, ""},
		{"ifacesteer", "len(a)", "", nil, nil, "decides a branch at forms.go"},
		{"impure", "max(0, n)", "", nil, nil, "not known to be pure: println"},
		{"strings-pure", "len(lines)", "R", nil, nil, ""},
		{"methodbound", "max(0, (d.n+d.size-d.rank-1)/d.size)", "R", func(b symbolic.Names) {
			forms.MethodBound(forms.NewCyclic(n(b, "d.n"), n(b, "d.rank"), n(b, "d.size")))
		}, []symbolic.Names{{"d.n": 10, "d.rank": 0, "d.size": 3}, {"d.n": 10, "d.rank": 2, "d.size": 3}}, ""},
		{"ptrmethodbound", "max(0, b.hi-b.lo)", "R", func(b symbolic.Names) { forms.PointerMethodBound(forms.NewBand(n(b, "b.lo"), n(b, "b.hi"))) },
			[]symbolic.Names{{"b.lo": 3, "b.hi": 10}, {"b.lo": 5, "b.hi": 5}}, ""},
		{"hoistedlen", "len(mine.buf)/4", "R", func(b symbolic.Names) {
			forms.HoistedLenBound(forms.NewBlock(n(b, "len(mine.buf)")/4), forms.NewBlock(n(b, "len(other.buf)")/4))
		}, []symbolic.Names{{"len(mine.buf)": 12, "len(other.buf)": 20}, {"len(mine.buf)": 4, "len(other.buf)": 0}}, ""},
		{"cutrows-outer", "max(0, rows)", "R", func(b symbolic.Names) {
			forms.PointRows(make([]float64, n(b, "rows")*n(b, "dim")), n(b, "rows"), n(b, "dim"))
		},
			[]symbolic.Names{{"rows": 0, "dim": 3}, {"rows": 4, "dim": 3}}, ""},
		{"cutrows-inner", "max(0, (i+1)*dim-i*dim)", "R", nil, []symbolic.Names{{"i": 2, "dim": 3}}, ""},
		{"geom-stages", "count(from 1 while < n by *= 2)", "R", func(b symbolic.Names) { forms.Butterflies(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 2}, {"n": 16}, {"n": 100}, {"n": -4}}, ""},
		{"geom-blocks", "max(0, (n+checked(2*half)-1)/checked(2*half))", "R", nil, []symbolic.Names{{"n": 16, "half": 4}}, ""},
		{"geom-pairs", "max(0, half)", "R", nil, []symbolic.Names{{"half": 4}}, ""},
		{"geom-halve", "count(from n/2 while > 0 by /= 2)", "R", func(b symbolic.Names) { forms.Halving(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 2}, {"n": 1000}, {"n": -8}}, ""},
		{"geom-shift", "count(from n while >= 1 by >>= 1)", "R", func(b symbolic.Names) { forms.Shifting(n(b, "n")) },
			[]symbolic.Names{{"n": 0}, {"n": 1}, {"n": 1 << 40}, {"n": -3}}, ""},
		{"geom-shl", "count(from lo while <= n by *= 2)", "R", func(b symbolic.Names) { forms.Doubling(n(b, "lo"), n(b, "n")) },
			[]symbolic.Names{{"lo": 1, "n": 64}, {"lo": 3, "n": 100}, {"lo": 5, "n": 4}}, ""},
		{"geom-zero", "count(from 0 while < n by *= 2)", "ud", nil, nil, "data-dependent"},
		{"copy-field", "max(0, g.size)", "R", func(b symbolic.Names) { forms.Unpack(forms.NewBlocks(n(b, "g.size"), 3)) },
			[]symbolic.Names{{"g.size": 0}, {"g.size": 4}}, ""},
		{"copy-int", "", "d", nil, nil, "data-dependent"},
		{"spanrows", "max(0, k)", "R", func(b symbolic.Names) { forms.SpanRows(n(b, "n"), n(b, "k")) },
			[]symbolic.Names{{"n": 10, "k": 3}, {"n": 7, "k": 7}, {"n": 2, "k": 5}}, ""},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.marker] = true
		t.Run(tt.marker, func(t *testing.T) {
			line, ok := lines[tt.marker]
			if !ok {
				t.Fatalf("marker %q not in forms.go", tt.marker)
			}
			l := loopAt(t, p, line)
			got := ""
			if l.Trip != nil {
				got = l.Trip.String()
			}
			if got != tt.trip {
				t.Errorf("trip = %q, want %q (notes %q)", got, tt.trip, l.Notes)
			}
			if f := flagString(l); f != tt.flags {
				t.Errorf("flags = %q, want %q (notes %q, reasons %q)", f, tt.flags, l.Notes, l.Reduction.Reasons)
			}
			if tt.reason != "" && !strings.Contains(strings.Join(l.Reduction.Reasons, "; "), tt.reason) {
				t.Errorf("reasons = %q, want one containing %q", l.Reduction.Reasons, tt.reason)
			}
			if !l.Reduction.Reducible && len(l.Reduction.Reasons) == 0 {
				t.Errorf("not reduced, but no reason given")
			}
			for _, b := range tt.bindings {
				totals, err := Iterations(l, b)
				if err != nil {
					if tt.trip != "divexact(n, 1)" {
						t.Errorf("%v: %v", b, err)
					}
					continue
				}
				if tt.run == nil {
					continue
				}
				clear(forms.Hits)
				tt.run(b)
				for _, x := range l.Inner {
					checkHits(t, b, x, totals[x], forms.Hits[x.Depth-1])
				}
				checkHits(t, b, l, totals[l], forms.Hits[l.Depth-1])
			}
		})
	}
	for m := range lines {
		if !seen[m] {
			t.Errorf("marker %q has no test", m)
		}
	}
}

// TestGeometricNestCounted checks every level of a radix-2 FFT's loops
// (log2 n stages, n/(2 half) blocks of half butterflies) against a run,
// and that a counter multiplied from 0 has no count.
func TestGeometricNestCounted(t *testing.T) {
	p := load(t, "testdata/forms")
	lines := markers(t, "testdata/forms/forms.go")
	root := loopAt(t, p, lines["geom-stages"])
	for _, n := range []int64{1, 2, 8, 1024, 1000} {
		b := symbolic.Names{"n": n}
		totals, err := Iterations(root, b)
		if err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		clear(forms.Hits)
		forms.Butterflies(int(n))
		root.WalkAll(func(l *Loop) { checkHits(t, b, l, totals[l], forms.Hits[l.Depth-1]) })
		if n == 1024 && (totals[root] != 10 || totals[root.Inner[0].Inner[0]] != 10*512) {
			t.Errorf("n = 1024: %d stages, %d butterflies; want 10 and 5120", totals[root], totals[root.Inner[0].Inner[0]])
		}
	}
	zero := loopAt(t, p, lines["geom-zero"])
	if _, err := Iterations(zero, symbolic.Names{"n": 5}); !errors.Is(err, symbolic.ErrNoTermination) {
		t.Errorf("x *= 2 from 0: Iterations error %v, want ErrNoTermination", err)
	}
}

func checkHits(t *testing.T, b symbolic.Names, l *Loop, predicted int64, actual float64) {
	t.Helper()
	if l.UpperBound && float64(predicted) >= actual || !l.UpperBound && float64(predicted) == actual {
		return
	}
	rel := "=="
	if l.UpperBound {
		rel = ">="
	}
	t.Errorf("%v: loop %s predicted %d iterations, want %s %v (the run)", b, l.ID, predicted, rel, actual)
}

func TestNotEqualNeverEnding(t *testing.T) {
	p := load(t, "testdata/forms")
	l := loopAt(t, p, markers(t, "testdata/forms/forms.go")["ne"])
	if _, err := l.Trip.Eval(symbolic.Names{"n": -3}); err != symbolic.ErrNoTermination {
		t.Errorf("i != n from 0 to -3: err = %v, want ErrNoTermination", err)
	}
}

func TestRankRowsRun(t *testing.T) {
	// Run the rank/size forms on 3 ranks: each rank's count must equal the
	// trip count evaluated with its rank.
	p := load(t, "testdata/forms")
	lines := markers(t, "testdata/forms/forms.go")
	rows, cyclic := loopAt(t, p, lines["rankrows"]), loopAt(t, p, lines["cyclic"])
	const np, n = 3, 10
	got := make([][2]float64, np)
	err := mpi.Run(np, func(c *mpi.Comm) {
		// Hits is shared: ranks take turns.
		for r := range np {
			if c.Rank() == r {
				clear(forms.Hits)
				forms.RankRows(c, n)
				got[r] = [2]float64{forms.Hits[0], forms.Hits[1]}
			}
			c.Barrier()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for r := range np {
		b := symbolic.Names{"rank": int64(r), "size": np, "n": n}
		for i, l := range []*Loop{rows, cyclic} {
			want, err := l.Trip.Eval(b)
			if err != nil || float64(want) != got[r][i] {
				t.Errorf("rank %d: %s = %d, %v; ran %v times", r, l.ID, want, err, got[r][i])
			}
		}
	}
}

func TestFindLoopsMatchesModel(t *testing.T) {
	// The seam: loops found without the model get the model's IDs.
	for _, dir := range []string{"testdata/forms", "../examples/heat", "../examples/cg", "../examples/mandelbrot"} {
		p := load(t, dir)
		for _, f := range p.Funcs {
			var want, got []string
			for _, l := range f.Loops {
				want = append(want, l.ID)
			}
			for _, s := range FindLoops(f.Fn) {
				got = append(got, s.ID)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: FindLoops IDs %q, model %q", f.Fn, got, want)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	p := load(t, "../examples/matmul")
	nests := p.Nests()
	if len(nests) == 0 {
		t.Fatal("no reduced nests in matmul")
	}
	for _, n := range nests {
		if p.Loop(n.ID) != n {
			t.Errorf("Loop(%q) does not find the nest", n.ID)
		}
	}
	if p.Loop("main.nothing:loop@x.go:+1:1") != nil {
		t.Error("Loop found a loop that does not exist")
	}
}
