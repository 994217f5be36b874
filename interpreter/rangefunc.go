package interpreter

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A range over a library iterator (for i, v := range slices.All(x)) runs
// its loop inside the library: SSA makes the body a yield function that
// the iterator calls once per element. The interpreter does not execute
// library code, so for the iterators of the standard library whose
// element count it knows (a slice's or a map's length) it charges the
// loop as a reduced nest: its iterations times the body's profiled time
// per iteration (RangeCoster), and what the body writes (the variables it
// captures) becomes unknown. A body that leaves the loop early (break,
// return, goto), makes MPI calls, or calls what the interpreter cannot
// follow is not charged this way: the iterator's call is then costed as a
// library call, the loop's profiled time per entry charged, and
// assumed.

// RangeCoster is implemented by oracles that know the time per iteration
// of a range-over-func loop's body (yield, its synthetic function):
// perIter seconds, including what the body calls, and per entry of the
// loop perEntry; label is the region they belong to. ok is false without
// profile data for it.
type RangeCoster interface {
	RangeCost(yield *ssa.Function) (perIter, perEntry float64, label string, ok bool)
}

// seqCounts are the standard library's iterator constructors whose
// element count the interpreter can know, by their generic origin's name.
var seqCounts = map[string]func(args []value) (int64, bool){
	"slices.All": sliceLen, "slices.Values": sliceLen, "slices.Backward": sliceLen,
	"maps.All": mapLen, "maps.Keys": mapLen, "maps.Values": mapLen,
}

func sliceLen(args []value) (int64, bool) {
	switch x := args[0]; x.k {
	case vSlice:
		return x.n, true
	case vNil:
		return 0, true
	}
	return 0, false
}

func mapLen(args []value) (int64, bool) {
	switch x := args[0]; {
	case x.k == vMap && x.obj != nil && x.obj.m != nil:
		return int64(len(x.obj.m)), true
	case x.k == vNil:
		return 0, true
	}
	return 0, false
}

var nameSeq = "seq"

// seqCountOf is the element counter of the iterators fn returns, nil if
// fn is not one of seqCounts.
func seqCountOf(fn *ssa.Function) func(args []value) (int64, bool) {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg == nil || fn.Signature.Recv() != nil {
		return nil
	}
	return seqCounts[fn.Pkg.Pkg.Path()+"."+fn.Name()]
}

// seqOf is the iterator a call of ci's function with args returns, as an
// opaque value holding its element count, when the function is a known
// constructor and the count is known.
func seqOf(ci *calleeInfo, args []value) (value, bool) {
	if ci.seqCount == nil || len(args) != 1 {
		return value{}, false
	}
	n, ok := ci.seqCount(args)
	if !ok {
		return value{}, false
	}
	return value{k: vOpaque, sp: &nameSeq, i: n}, true
}

// rangeSeq charges the call of a known iterator seq with its loop's body
// yield. It returns false when the body cannot be charged this way (the
// caller costs the call as a library call).
func (r *ssaRank) rangeSeq(f *frame, in *ssa.Call, ic *instrCode, seq, yield value) bool {
	fn := yield.fun()
	if fn == nil || !isYield(fn) {
		return false
	}
	sum := r.shared.rangeBody(fn)
	if !sum.costed {
		return false
	}
	if sum.why == "" {
		r.charge(ic.callCost+float64(seq.i)*sum.perIter, sum.label)
	} else {
		// Not charged per element: the loop's time per entry, as
		// profiled, and the body not run (its MPI calls not simulated).
		r.charge(ic.callCost+sum.perEntry, sum.label)
		r.assume(r.nearestPos(f), "range over a library iterator whose body %s: the loop costs its profiled time per entry, not its iterations' (%d here), and its body is not run (MPI calls in it are not simulated)", sum.why, seq.i)
	}
	// What the body wrote becomes unknown: the captured variables it
	// assigns (s += v), and, if it writes memory, what the captured
	// variables point to (x[i] = ... makes x's elements unknown, not x).
	// The loop's exit state is not touched: it stays "ran to its end",
	// and the code after the call branches on it.
	for i, fv := range fn.FreeVars {
		if yield.obj == nil {
			break
		}
		if strings.HasPrefix(fv.Name(), "jump$") {
			continue
		}
		cell := yield.obj.get(int64(i))
		if sum.assigned[i] {
			havocValue(cell)
		}
		if sum.writesMemory && cell.k == vPtr && cell.obj != nil && cell.c >= 0 {
			havocValue(cell.obj.get(cell.i))
		}
	}
	r.set(f, unknownOf(in.Type()))
	return true
}

// rangeSummary is what the interpreter needs to know of a range-over-func
// body to charge it without executing it.
type rangeSummary struct {
	why          string       // why it cannot be charged per element; "" if it can
	assigned     map[int]bool // free variables (by index) the body assigns
	writesMemory bool         // it, or a function it calls, writes memory it did not allocate
	// The oracle's RangeCost, asked once (its answers do not change
	// during a simulation); costed is false without them.
	perIter, perEntry float64
	label             string
	costed            bool
}

// rangeBody summarises a range-over-func body, once per body.
func (s *programShared) rangeBody(yield *ssa.Function) *rangeSummary {
	if s.rangeSums == nil {
		s.rangeSums = map[*ssa.Function]*rangeSummary{}
	}
	if sum, ok := s.rangeSums[yield]; ok {
		return sum
	}
	sum := &rangeSummary{assigned: map[int]bool{}}
	if rc, ok := s.oracle.(RangeCoster); ok {
		sum.perIter, sum.perEntry, sum.label, sum.costed = rc.RangeCost(yield)
	}
	if rng, ok := yield.Syntax().(*ast.RangeStmt); !ok {
		sum.why = "has no range statement"
	} else if exit := earlyExit(rng.Body); exit != "" {
		sum.why = "may leave the loop early (" + exit + ")"
	}
	// Scanned even when it cannot be charged so: what it writes becomes
	// unknown either way.
	s.scanBody(yield, yield, sum, map[*ssa.Function]bool{})
	s.rangeSums[yield] = sum
	return sum
}

// scanBody records in sum what fn (the body, or a function it calls)
// assigns and writes, and the first thing it does that the interpreter
// cannot charge without executing it (sum.why, unless already set): an
// MPI call, a call through a function value or an interface, a write to a
// package variable.
func (s *programShared) scanBody(body, fn *ssa.Function, sum *rangeSummary, seen map[*ssa.Function]bool) {
	if seen[fn] {
		return
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				switch addr := in.Addr.(type) {
				case *ssa.FreeVar:
					if fn == body {
						sum.assigned[slices.Index(body.FreeVars, addr)] = true
					} else {
						sum.writesMemory = true
					}
				case *ssa.Alloc:
					// The function's own variable.
				case *ssa.Global:
					sum.block("writes the package variable " + addr.Name())
				default:
					sum.writesMemory = true
				}
			case *ssa.MapUpdate:
				sum.writesMemory = true
			case ssa.CallInstruction:
				c := in.Common()
				if b, builtin := c.Value.(*ssa.Builtin); builtin {
					if b.Name() == "copy" || b.Name() == "append" || b.Name() == "clear" {
						sum.writesMemory = true
					}
					continue
				}
				callee := c.StaticCallee()
				if callee == nil {
					sum.block("calls through a function value or an interface")
					sum.writesMemory = true
					continue
				}
				ci := s.callee(callee)
				switch {
				case ci.mpi:
					sum.block("makes MPI calls (" + ci.mpiName + ")")
				case ci.user:
					s.scanBody(body, callee, sum, seen)
				case pureLib[ci.lib()] == nil && passesMemory(c.Args):
					// A library function given memory may write it
					// (sort.Float64s).
					sum.writesMemory = true
				}
			}
		}
	}
}

// block records why the body cannot be charged per element, the first
// reason found.
func (sum *rangeSummary) block(why string) {
	if sum.why == "" {
		sum.why = why
	}
}

// passesMemory reports whether any of args lets the callee reach memory
// the caller holds.
func passesMemory(args []ssa.Value) bool {
	for _, a := range args {
		switch a.Type().Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Signature, *types.Chan:
			return true
		}
	}
	return false
}

// earlyExit names a statement of a range body that leaves the loop early:
// a return, a goto, a break of the range itself or a labelled break or
// continue; "" if none (a continue of the range ends one iteration).
// Function literals are their own bodies.
func earlyExit(body *ast.BlockStmt) string {
	found := ""
	var walk func(n ast.Node, inner bool)
	walk = func(n ast.Node, inner bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found != "" || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = "return"
			case *ast.BranchStmt:
				switch {
				case m.Tok == token.GOTO:
					found = "goto"
				case m.Label != nil:
					found = "labelled " + m.Tok.String()
				case m.Tok == token.BREAK && !inner:
					found = "break"
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					// An unlabelled break in there is that statement's.
					walk(m, true)
					return false
				}
			case *ast.DeferStmt:
				found = "defer"
			}
			return true
		})
	}
	walk(body, false)
	return found
}
