package prediction

import (
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
	// counted and ran say, by the profile's function name, whether the
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
	return dr
}

// callTargets is what dynamic call site call called in the profile's run:
// the closure or function the SSA calls there when it is known; else the
// functions the call can reach as the loop analysis resolves them
// (loopnest.Program.DynamicCallees: the program's functions used as
// values with the call's signature, or the methods of the types converted
// to the interface it calls) that ran in the profile, when each of the
// others is known not to have run (none of its counted regions executed).
// nil when that cannot be told: a candidate of the standard library, or
// one whose profile counts nothing.
func (dr *dynResolver) callTargets(call *ssa.Call) []*ssa.Function {
	if fn := call.Call.StaticCallee(); fn != nil {
		if dr.o.user[fn] == nil {
			return nil
		}
		return []*ssa.Function{fn}
	}
	var out []*ssa.Function
	for _, fn := range dr.o.lp.DynamicCallees(&call.Call) {
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
