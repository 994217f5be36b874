package prediction

import (
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/profiler"
)

// dynamicSites are the profiled call statements that the profile names no
// callee for (a call through a function value, or through an interface
// several of the program's types implement), by the functions that the
// SSA and the profile's counts say they called (callTargets). A site with
// several targets ran each of them; kernelRates shares its time among
// them.
func (o *Oracle) dynamicSites() (sites map[string][]*profiler.Region, targets map[string][]string) {
	sites, targets = map[string][]*profiler.Region{}, map[string][]string{}
	dr := o.newDynResolver()
	for _, f := range o.mp.Funcs {
		for _, b := range f.SSA.Blocks {
			for i, in := range b.Instrs {
				call, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				l := f.LeafAt(b, i)
				if l == nil {
					continue
				}
				r, found := o.region(l.ID())
				if !found || r.Kind != profiler.Call || r.Callee != dynamicCallee || len(targets[r.ID]) > 0 {
					continue
				}
				for _, fn := range dr.callTargets(call) {
					sites[fn.String()] = append(sites[fn.String()], r)
					targets[r.ID] = append(targets[r.ID], fn.String())
				}
			}
		}
	}
	for name, rs := range sites {
		// Map order must not reach the sums: the same profile gives the
		// same prediction to the last bit.
		sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
		sites[name] = slices.CompactFunc(rs, func(a, b *profiler.Region) bool { return a.ID == b.ID })
	}
	return sites, targets
}

// dynResolver finds what dynamic calls of the program called in the
// profile's run.
type dynResolver struct {
	o *Oracle
	// taken are the functions the program's code uses as values (passed,
	// stored, returned; closures made), methods for method values.
	taken []*ssa.Function
	// counted and ran say, by the model's function name, whether the
	// profile counts any of the function's regions (loops, calls, branch
	// arms: a body alone is not counted when untimed) and whether any of
	// them executed.
	counted, ran map[string]bool
}

func (o *Oracle) newDynResolver() *dynResolver {
	dr := &dynResolver{o: o, counted: map[string]bool{}, ran: map[string]bool{}}
	for i := range o.prof.Regions {
		r := &o.prof.Regions[i]
		if r.Kind == profiler.FuncBody {
			continue
		}
		dr.counted[r.Func] = true
		if r.Execs > 0 {
			dr.ran[r.Func] = true
		}
	}
	seen := map[*ssa.Function]bool{}
	take := func(fn *ssa.Function) {
		if fn.Synthetic != "" {
			// A method value (x.M) or expression (T.M) calls the method
			// through a wrapper.
			if m, ok := fn.Object().(*types.Func); ok && m.Type().(*types.Signature).Recv() != nil {
				if mf := fn.Prog.FuncValue(m); mf != nil {
					fn = mf
				}
			}
		}
		if !seen[fn] {
			seen[fn] = true
			dr.taken = append(dr.taken, fn)
		}
	}
	for _, f := range o.mp.Funcs {
		for _, b := range f.SSA.Blocks {
			for _, in := range b.Instrs {
				var callee ssa.Value
				if c, ok := in.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee = c.Common().Value // called, not taken
				}
				var ops [8]*ssa.Value
				for _, op := range in.Operands(ops[:0]) {
					if fn, ok := (*op).(*ssa.Function); ok && *op != callee {
						take(fn)
					}
				}
				if mc, ok := in.(*ssa.MakeClosure); ok {
					take(mc.Fn.(*ssa.Function))
				}
			}
		}
	}
	return dr
}

// callTargets is what dynamic call site call called in the profile's run:
// the closure or function the SSA calls there when it is known; else the
// functions the call can reach (the program's functions used as values
// with the call's signature, or the methods of the program's types that
// implement the program's interface it calls) that ran in the profile,
// when each of the others is known not to have run (none of its counted
// regions executed). nil when that cannot be told: a candidate of the
// standard library, or one whose profile counts nothing.
func (dr *dynResolver) callTargets(call *ssa.Call) []*ssa.Function {
	if fn := call.Call.StaticCallee(); fn != nil {
		if dr.o.user[fn] == nil {
			return nil
		}
		return []*ssa.Function{fn}
	}
	var cands []*ssa.Function
	if call.Call.IsInvoke() {
		m := call.Call.Method
		iface, ok := call.Call.Value.Type().Underlying().(*types.Interface)
		if !ok || !dr.o.ownPackage(m.Pkg()) {
			return nil // a library's interface: its implementations are not all in view
		}
		for _, f := range dr.o.mp.Funcs {
			if f.SSA.Signature.Recv() != nil && f.SSA.Name() == m.Name() && f.SSA.Object() != nil && implements(f.SSA.Signature.Recv().Type(), iface) {
				cands = append(cands, f.SSA)
			}
		}
	} else {
		for _, fn := range dr.taken {
			sig := fn.Signature
			if sig.Recv() != nil {
				// A method through its method value: the value's
				// signature has no receiver.
				sig = types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
			}
			if types.Identical(sig, call.Call.Signature()) {
				cands = append(cands, fn)
			}
		}
	}
	var out []*ssa.Function
	for _, fn := range cands {
		f := dr.o.user[fn]
		if f == nil || !dr.counted[dr.o.profName(f)] {
			return nil
		}
		if dr.ran[dr.o.profName(f)] {
			out = append(out, fn)
		}
	}
	return out
}

// implements reports whether values of type recv, or pointers to them,
// implement iface (a method of T is one of *T's).
func implements(recv types.Type, iface *types.Interface) bool {
	if types.Implements(recv, iface) {
		return true
	}
	_, isPtr := recv.(*types.Pointer)
	return !isPtr && types.Implements(types.NewPointer(recv), iface)
}

// ownPackage reports whether pkg is one of the analysed program's.
func (o *Oracle) ownPackage(pkg *types.Package) bool {
	for _, p := range o.mp.Packages {
		if p != nil && p.Pkg == pkg {
			return true
		}
	}
	return false
}
