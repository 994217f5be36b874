package loopnest

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// invokeCallees are the methods an interface method call may run: the
// method of each type of the program that is converted to an interface
// somewhere (ssa.Program.RuntimeTypes: a value reaches an interface
// only by such a conversion) and implements the call's interface,
// sorted by name. Empty when no such type is known, so that the call
// stays unknown. Methods promoted through a pointer wrapper are given
// as the declared method.
func (a *Analyzer) invokeCallees(prog *ssa.Program, common *ssa.CallCommon) []*ssa.Function {
	iface, ok := common.Value.Type().Underlying().(*types.Interface)
	if !ok || common.Method == nil {
		return nil
	}
	if a.invokes == nil {
		a.runtimeTypes, a.invokes = prog.RuntimeTypes(), map[invokeKey][]*ssa.Function{}
	}
	key := invokeKey{iface: types.TypeString(common.Value.Type(), nil), method: common.Method.Id()}
	if fns, ok := a.invokes[key]; ok {
		return fns
	}
	seen := map[*ssa.Function]bool{}
	var fns []*ssa.Function
	for _, t := range a.runtimeTypes {
		if types.IsInterface(t) || !types.Implements(t, iface) {
			continue
		}
		sel := prog.MethodSets.MethodSet(t).Lookup(common.Method.Pkg(), common.Method.Name())
		if sel == nil {
			continue
		}
		fn := prog.MethodValue(sel)
		if fn == nil {
			continue
		}
		if fn = DeclaredFunc(prog, fn); !seen[fn] {
			seen[fn] = true
			fns = append(fns, fn)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].String() < fns[j].String() })
	a.invokes[key] = fns
	return fns
}

// invokeKey names an interface method: the interface type and the
// method's identity.
type invokeKey struct{ iface, method string }
