package interpreter

import (
	"cmp"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Unsupported is a construct the evaluator stops at (a rank's own
// goroutines and channels), in code that main may reach.
type Unsupported struct {
	Pos  token.Position
	Fn   *ssa.Function // the function it is in
	What string        // "go statement", "make(chan)", ...
}

// FindUnsupported lists, in source order, the goroutines and channel
// operations of the functions of own that main (and init) of pkg may
// reach through static calls, closures and function values. The
// evaluator finds them only when a rank reaches one, which is after the
// profile run; this tells the user before it. A use in a branch that is
// never taken is listed too: the list says what may stop a prediction.
func FindUnsupported(pkg *ssa.Package, own []*ssa.Package) []Unsupported {
	inOwn := map[*ssa.Package]bool{}
	for _, p := range own {
		inOwn[p] = true
	}
	var queue []*ssa.Function
	seen := map[*ssa.Function]bool{}
	visit := func(fn *ssa.Function) {
		if fn == nil || seen[fn] || len(fn.Blocks) == 0 {
			return
		}
		// Closures belong to their enclosing function's package; a
		// synthetic wrapper (a method value) has none but wraps one.
		if p := fn.Package(); p != nil && !inOwn[p] {
			return
		}
		seen[fn] = true
		queue = append(queue, fn)
	}
	for _, name := range []string{"init", "main"} {
		if fn := pkg.Func(name); fn != nil {
			visit(fn)
		}
	}
	var found []Unsupported
	fset := pkg.Prog.Fset
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if what := unsupportedWhat(in); what != "" {
					found = append(found, Unsupported{Pos: fset.Position(in.Pos()), Fn: fn, What: what})
				}
				var ops [8]*ssa.Value
				for _, op := range in.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if callee, ok := (*op).(*ssa.Function); ok {
						visit(callee)
					}
				}
			}
		}
	}
	slices.SortStableFunc(found, func(a, b Unsupported) int {
		return cmp.Or(strings.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Offset, b.Pos.Offset))
	})
	return found
}

// unsupportedWhat names what in is when the evaluator cannot run it
// (exec.go's step), else "".
func unsupportedWhat(in ssa.Instruction) string {
	switch in := in.(type) {
	case *ssa.Go:
		return "go statement"
	case *ssa.MakeChan:
		return "make(chan)"
	case *ssa.Send, *ssa.Select:
		return "channel send or select"
	case ssa.CallInstruction:
		if fn := in.Common().StaticCallee(); fn != nil {
			return startsGoroutine(libName(fn))
		}
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			return "channel receive"
		}
	}
	return ""
}

// goroutineStarters are the library functions that run the function they
// are given on a goroutine of its own, as a go statement does: its work
// and what it writes would be missing from the simulation, whose ranks
// are one thread each.
var goroutineStarters = map[string]bool{
	"(*sync.WaitGroup).Go":                      true,
	"(*golang.org/x/sync/errgroup.Group).Go":    true,
	"(*golang.org/x/sync/errgroup.Group).TryGo": true,
	"time.AfterFunc":                            true,
}

// startsGoroutine names what a call of library function name is when it
// starts a goroutine (goroutineStarters), else "".
func startsGoroutine(name string) string {
	if goroutineStarters[name] {
		return "goroutine started by " + name
	}
	return ""
}

// UnsupportedAdvice says what to do about a construct FindUnsupported
// lists.
const UnsupportedAdvice = noChannels
