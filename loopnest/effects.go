package loopnest

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// summary is what a block, loop or function does that matters to the
// reduction plan. Sites are kept once each: per position for the code's own
// sites, per name and function for sites found in callees, so summaries of
// deep call chains stay small.
type summary struct {
	mpi, calls, effects []Site
	seen                map[string]bool
}

func (s *summary) put(list *[]Site, site Site) {
	key := site.Name + "|" + site.Via
	if site.Via == "" {
		key += fmt.Sprintf("|%d|%t", site.Pos, site.Pure)
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[key] {
		s.seen[key] = true
		*list = append(*list, site)
	}
}

// add adds o's sites, attributing those without a function to via.
func (s *summary) add(o *summary, via string) {
	for _, x := range o.mpi {
		s.put(&s.mpi, withVia(x, via))
	}
	for _, x := range o.calls {
		s.put(&s.calls, withVia(x, via))
	}
	for _, x := range o.effects {
		s.put(&s.effects, withVia(x, via))
	}
}

func withVia(site Site, via string) Site {
	if site.Via == "" {
		site.Via = via
	}
	return site
}

// blockSummary lists the MPI calls, other calls and effects of b's
// instructions, looking into calls of the program's own functions.
func (a *Analyzer) blockSummary(b *ssa.BasicBlock) *summary {
	if s, ok := a.blocks[b]; ok {
		return s
	}
	s := &summary{}
	a.blocks[b] = s
	for _, in := range b.Instrs {
		switch in := in.(type) {
		case *ssa.Go:
			s.put(&s.effects, Site{Name: "go statement", Pos: in.Pos()})
		case *ssa.Defer:
			s.put(&s.effects, Site{Name: "defer statement", Pos: in.Pos()})
		case *ssa.Select:
			s.put(&s.effects, Site{Name: "select", Pos: in.Pos()})
		case *ssa.Send:
			s.put(&s.effects, Site{Name: "channel send", Pos: in.Pos()})
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				s.put(&s.effects, Site{Name: "channel receive", Pos: in.Pos()})
			}
		case *ssa.Store:
			if g, ok := in.Addr.(*ssa.Global); ok {
				s.put(&s.effects, Site{Name: "store to package variable " + g.Name(), Pos: in.Pos()})
			} else if what := builtShape(in.Val); what != "" {
				// The rows of a 2-D slice made in a loop: later loops
				// count over their lengths, which the interpreter only
				// knows if it runs the loop that makes them (cheaply:
				// arrays are not allocated for real).
				s.put(&s.effects, Site{Name: "stores " + what + " into memory", Pos: in.Pos()})
			}
		case *ssa.Call:
			a.callSummary(s, in)
		}
	}
	return s
}

// builtShape names what v is when it is new memory whose shape later code
// may count over (a made slice or map, a new object), else "". Appended
// slices are not: a loop that appends element by element (the columns of
// a sparse matrix) would be run element by element, which costs the
// interpreter as much as the program.
func builtShape(v ssa.Value) string {
	for depth := 0; depth < 8; depth++ {
		switch x := v.(type) {
		case *ssa.MakeSlice:
			return "a new slice"
		case *ssa.MakeMap:
			return "a new map"
		case *ssa.Alloc:
			if x.Heap {
				return "a new object"
			}
			return ""
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return ""
		}
	}
	return ""
}

func (a *Analyzer) callSummary(s *summary, call *ssa.Call) {
	common := call.Common()
	pos := call.Pos()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		s.put(&s.calls, Site{Name: b.Name(), Pos: pos, Pure: a.pure.PureBuiltin(b.Name())})
		return
	}
	if callee := common.StaticCallee(); callee != nil {
		a.calleeSummary(s, callee, pos)
		return
	}
	name := "dynamic call"
	var fns []*ssa.Function
	if common.IsInvoke() {
		name = "interface method " + common.Method.Name()
		fns = a.invokeCallees(call.Parent().Prog, common)
	} else {
		fns = a.funcValueCallees(call.Parent().Prog, common.Signature())
	}
	// A call through an interface or a function value is what the
	// functions it may run do: pure if each is (and there is one at
	// least).
	pure := len(fns) > 0
	for _, fn := range fns {
		sub := &summary{}
		a.calleeSummary(sub, fn, pos)
		pure = pure && len(sub.mpi) == 0 && len(sub.effects) == 0
		for _, x := range sub.mpi {
			s.put(&s.mpi, x)
		}
		for _, x := range sub.effects {
			s.put(&s.effects, x)
		}
		for _, c := range sub.calls {
			if c.Via == "" && c.Pos == pos { // the method's own site
				pure = pure && c.Pure
			} else {
				s.put(&s.calls, c)
			}
		}
	}
	s.put(&s.calls, Site{Name: name + a.candidatesNote(fns), Pos: pos, Pure: pure})
}

// candidatesNote names, for the loop report, the functions a call
// through an interface or a function value was resolved to, or says that
// it was not.
func (a *Analyzer) candidatesNote(fns []*ssa.Function) string {
	if len(fns) == 0 {
		return " (unresolved)"
	}
	const shown = 3
	names := make([]string, 0, shown)
	for _, fn := range fns[:min(len(fns), shown)] {
		names = append(names, a.funcName(fn))
	}
	if len(fns) > shown {
		names = append(names, fmt.Sprintf("%d more", len(fns)-shown))
	}
	return " -> " + strings.Join(names, ", ")
}

// calleeSummary puts the sites of a call at pos of the function callee
// into s: the call itself, and the MPI calls, effects and impure calls of
// a program function's body.
func (a *Analyzer) calleeSummary(s *summary, callee *ssa.Function, pos token.Pos) {
	path, name := qualified(callee)
	switch {
	case path == MPIPath && !a.pure.Pure(callee):
		s.put(&s.mpi, Site{Name: name[strings.LastIndex(name, ".")+1:], Pos: pos})
	case a.pure.Pure(callee):
		s.put(&s.calls, Site{Name: displayName(path, name), Pos: pos, Pure: true})
	case a.own(callee):
		sub := a.funcSummary(callee)
		pure := len(sub.mpi) == 0 && len(sub.effects) == 0 && allPure(sub.calls)
		via := a.funcName(callee)
		s.put(&s.calls, Site{Name: via, Pos: pos, Pure: pure})
		for _, x := range sub.mpi {
			s.put(&s.mpi, withVia(x, via))
		}
		for _, x := range sub.effects {
			s.put(&s.effects, withVia(x, via))
		}
		for _, c := range sub.calls {
			if !c.Pure {
				s.put(&s.calls, withVia(c, via))
			}
		}
	default:
		s.put(&s.calls, Site{Name: displayName(path, name), Pos: pos})
	}
}

func displayName(path, name string) string {
	return path[strings.LastIndex(path, "/")+1:] + "." + name
}

func allPure(sites []Site) bool {
	for _, s := range sites {
		if !s.Pure {
			return false
		}
	}
	return true
}

// funcName is funcName(fn), remembered: printing a method's name is slow.
func (a *Analyzer) funcName(fn *ssa.Function) string {
	n, ok := a.names[fn]
	if !ok {
		n = funcName(fn)
		a.names[fn] = n
	}
	return n
}

// funcSummary is the summary of a program function's whole body, computed
// once. A recursive call seen while the callee is being summarised
// contributes nothing more, which is sound: its body is being summarised.
func (a *Analyzer) funcSummary(fn *ssa.Function) *summary {
	if s, ok := a.funcs[fn]; ok {
		return s
	}
	s := &summary{}
	a.funcs[fn] = s
	for _, b := range fn.Blocks {
		s.add(a.blockSummary(b), "")
	}
	for _, anon := range fn.AnonFuncs {
		// A closure made here may be called anywhere: count its body too.
		s.add(a.funcSummary(anon), "")
	}
	return s
}

// loopSummary fills the loop's MPI, Calls and Effects.
func (a *Analyzer) loopSummary(l *Loop) {
	s := &summary{}
	for _, b := range l.Blocks {
		s.add(a.blockSummary(b), "")
	}
	for _, b := range l.Arms {
		s.add(a.blockSummary(b), "")
	}
	fset := l.Func.Prog.Fset
	l.MPI = sortSites(fset, slices.Clone(s.mpi))
	l.Calls = sortSites(fset, slices.Clone(s.calls))
	l.Effects = sortSites(fset, slices.Clone(s.effects))
}

// sortSites orders the loop's own sites first, then those found in each
// callee; within each, by file name and offset (token.Pos order across
// files depends on the order files were parsed in).
func sortSites(fset *token.FileSet, s []Site) []Site {
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Via != s[j].Via {
			return s[i].Via < s[j].Via
		}
		a, b := fset.Position(s[i].Pos), fset.Position(s[j].Pos)
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return s[i].Name < s[j].Name
	})
	return s
}
