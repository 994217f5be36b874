package profiler

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

// A dynamic call's target is known where the syntax tells: the one
// method an interface method can be, the literal a variable is defined
// with and never changed from; not for an interface with two
// implementations or a variable assigned twice.
func TestDynamicTargets(t *testing.T) {
	_, _, in := instrumentCounting(t, ".", "./testdata/dynkernels")
	got := map[string]string{}
	for _, r := range in.Regions {
		if r.Kind != Call || r.callExpr == nil || r.callee != nil {
			continue
		}
		name := types.ExprString(r.callExpr.Fun)
		switch tg := r.target.(type) {
		case *types.Func:
			got[name] = tg.FullName()
		case *ast.FuncLit:
			got[name] = "literal"
		default:
			got[name] = "unknown"
		}
	}
	want := map[string]string{
		"sm.sweep": "(github.com/parpredict/parpredict/profiler/testdata/dynkernels.jacobi).sweep",
		"work":     "literal",
		"other":    "unknown",
		"sh.area":  "unknown",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: target %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
}

// The work of a call site whose callee is untimed is the callee's
// innermost iterations also when the call is dynamic (through an
// interface, of a literal) or the callee recursive: the outer site of
// sum does all of sum's iterations, its calls of itself being inside it.
// Counted per execution instead, a kernel given 1/k of the data per rank
// read as k times faster per unit on a shared node.
func TestWorkUnitsOfDynamicAndRecursiveKernels(t *testing.T) {
	_, _, in := instrumentCounting(t, ".", "./testdata/dynkernels")
	loops := map[string]*region{}
	sites := map[string][]*region{}
	for _, r := range in.Regions {
		switch {
		case r.Kind == Loop && r.Func == "main.main$1$1":
			loops["work"] = r
		case r.Kind == Loop && r.decl != nil && r.decl.Name() != "main":
			loops[r.decl.Name()] = r
		case r.Kind == Call && r.callExpr != nil:
			name := types.ExprString(r.callExpr.Fun)
			sites[name] = append(sites[name], r)
		}
	}
	if loops["sweep"] == nil || loops["work"] == nil || loops["sum"] == nil || len(sites["sum"]) != 3 {
		t.Fatalf("loops %v, sites of sum %d", loops, len(sites["sum"]))
	}
	counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
	plan := timerPlan{timed: map[int]bool{}}
	counts.Regions[loops["sweep"].Index] = probe.RegionCounts{Execs: 1, Iters: 1000}
	counts.Regions[loops["work"].Index] = probe.RegionCounts{Execs: 1, Iters: 700}
	counts.Regions[loops["sum"].Index] = probe.RegionCounts{Execs: 16, Iters: 64}
	for _, name := range []string{"sm.sweep", "work"} {
		s := sites[name][0]
		counts.Regions[s.Index] = probe.RegionCounts{Execs: 1, Ns: 1000}
		plan.timed[s.Index] = true
	}
	var outer *region
	for _, s := range sites["sum"] {
		if s.decl.Name() == "sum" {
			counts.Regions[s.Index] = probe.RegionCounts{Execs: 15}
		} else {
			outer = s
			counts.Regions[s.Index] = probe.RegionCounts{Execs: 1, Ns: 1000}
			plan.timed[s.Index] = true
		}
	}
	a := &aggregator{in: in, plan: plan, m: measured{counts: counts, np: 1}}
	a.run()
	units := a.workUnits()
	for name, want := range map[*region]float64{sites["sm.sweep"][0]: 1000, sites["work"][0]: 700, outer: 64} {
		if got := units[name.Index]; got != want {
			t.Errorf("%s: %v units, want %v", name.ID, got, want)
		}
	}
}

// A method is left untimed for being called through an interface only
// when its type implements that interface: grid's area shares its name
// with shape's, not its signature. square's area is called through shape.
func TestCalledThroughInterface(t *testing.T) {
	_, _, in := instrumentCounting(t, ".", "./testdata/dynkernels")
	found := map[string]bool{}
	for _, r := range in.Regions {
		if r.Kind == FuncBody && r.declBody && r.decl.Name() == "area" {
			recv := types.TypeString(r.decl.Type().(*types.Signature).Recv().Type(), func(*types.Package) string { return "" })
			found[recv] = in.calledThroughInterface(r.decl)
		}
	}
	want := map[string]bool{"*grid": false, "square": true, "circle": true}
	for recv, w := range want {
		if got, ok := found[recv]; !ok || got != w {
			t.Errorf("(%s).area called through an interface: %v (found %v), want %v", recv, got, ok, w)
		}
	}
}

// A function literal that no known call site calls (given to a library)
// does its loops' iterations where it is written: they are work units of
// the timed region around it.
func TestWorkUnitsOfLiteralGivenToLibrary(t *testing.T) {
	_, _, in := instrumentCounting(t, ".", "./testdata/dynkernels")
	var body, loop *region
	for _, r := range in.Regions {
		switch {
		case r.Kind == FuncBody && r.rank:
			body = r
		case r.Kind == Loop && r.Func == "main.main$1$4":
			loop = r
		}
	}
	if body == nil || loop == nil {
		t.Fatalf("rank body %v, the literal's loop %v", body, loop)
	}
	counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
	counts.Regions[body.Index] = probe.RegionCounts{Execs: 1, Ns: 1000}
	counts.Regions[loop.Index] = probe.RegionCounts{Execs: 64, Iters: 300}
	a := &aggregator{in: in, plan: timerPlan{timed: map[int]bool{body.Index: true}}, m: measured{counts: counts, np: 1}}
	a.run()
	if got := a.workUnits()[body.Index]; got != 300 {
		t.Errorf("rank body: %v units, want the literal's 300 iterations", got)
	}
}

// Calls the syntax cannot resolve (through a function value given to
// apply, through an interface two types implement) do the iterations of
// the declared kernels that no known site calls and whose signature they
// call: sm.sweep those of the sweep methods, apply's f(m) those of work.
// Counted per execution (before), a kernel given 1/k of the data read k
// times faster with k ranks on the node.
func TestWorkUnitsOfUnresolvedCalls(t *testing.T) {
	_, _, in := instrumentCounting(t, ".", "./testdata/valuesites")
	loops := map[string]*region{}
	sites := map[string]*region{}
	for _, r := range in.Regions {
		switch {
		case r.Kind == Loop && r.decl != nil:
			name := r.decl.Name()
			if recv := r.decl.Type().(*types.Signature).Recv(); recv != nil {
				name = types.TypeString(recv.Type(), func(*types.Package) string { return "" }) + "." + name
			}
			loops[name] = r
		case r.Kind == Call && r.callExpr != nil:
			sites[types.ExprString(r.callExpr.Fun)] = r
		}
	}
	if loops["jacobi.sweep"] == nil || loops["gaussSeidel.sweep"] == nil || loops["work"] == nil || sites["sm.sweep"] == nil || sites["f"] == nil {
		t.Fatalf("loops %v, sites %v", loops, sites)
	}
	if sites["sm.sweep"].dynSig == nil || sites["f"].dynSig == nil || sites["apply"].dynSig != nil {
		t.Fatalf("signatures of unresolved calls: sm.sweep %v, f %v, apply %v", sites["sm.sweep"].dynSig, sites["f"].dynSig, sites["apply"].dynSig)
	}
	counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
	plan := timerPlan{timed: map[int]bool{}}
	counts.Regions[loops["jacobi.sweep"].Index] = probe.RegionCounts{Execs: 1, Iters: 998}
	counts.Regions[loops["work"].Index] = probe.RegionCounts{Execs: 1, Iters: 1000}
	for _, name := range []string{"sm.sweep", "f", "apply"} {
		counts.Regions[sites[name].Index] = probe.RegionCounts{Execs: 1, Ns: 1000}
		plan.timed[sites[name].Index] = true
	}
	a := &aggregator{in: in, plan: plan, m: measured{counts: counts, np: 1}}
	a.run()
	units := a.workUnits()
	for name, want := range map[string]float64{"sm.sweep": 998, "f": 1000, "apply": 1} {
		if got := units[sites[name].Index]; got != want {
			t.Errorf("%s: %v units, want %v", name, got, want)
		}
	}
}
