package profiler

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// ModelTargets builds the model of prog's packages and turns its regions
// into probe targets, so that every measurement is keyed by a model ID:
// loops by their loop region's ID, function bodies by their tree's root
// ID, library, user and dynamic call segments by the leaf's ID. Branch
// arms are not regions of their own in the model; they get the ID of
// their if or switch region with "/then", "/else" or "/caseN" (N the
// clause's index, from 0) appended. Branch tests that no arm answers
// (modelTests) are counted under BranchTestID.
func ModelTargets(prog *Program) ([]Target, error) {
	ssaProg, spkgs := model.BuildSSA(prog.Packages)
	mp, err := model.Build(ssaProg, prog.Packages, spkgs)
	if mp == nil {
		return nil, fmt.Errorf("profiler: building the model: %w", err)
	}
	// Build reports functions it could not model alongside the others;
	// those keep no probes, the rest are used.
	stmts, copies := callStatements(prog), copyStatements(prog)
	inline := inlineCalls(prog, stmts)
	seen := map[ast.Node]bool{}
	names := map[*ssa.Function]string{}
	for _, f := range mp.Funcs {
		names[f.SSA] = f.Name
	}
	var out []Target
	add := func(t Target) { out = append(out, t) }
	for _, f := range mp.Funcs {
		if f.Syntax == nil || f.Tree == nil || seen[f.Syntax] {
			continue // synthesized, or a generic instance of a function already done
		}
		seen[f.Syntax] = true
		file := prog.Fset.Position(f.Syntax.Pos()).Filename
		if rng, ok := f.Syntax.(*ast.RangeStmt); ok {
			// The body of a range over an iterator function (slices.All):
			// SSA makes it a function the iterator calls once per
			// iteration, the loop itself being inside the iterator. The
			// range statement is timed as a loop under the body's ID, so
			// that its iterations and time per iteration are known.
			add(Target{ID: f.Tree.ID(), Kind: Loop, Node: rng, File: file, Func: names[f.SSA.Parent()]})
		} else {
			add(Target{ID: f.Tree.ID(), Kind: FuncBody, Node: f.Syntax, File: file, Func: f.Name})
		}
		for _, st := range copiesIn(f.Syntax, copies) {
			add(Target{ID: f.SiteID(string(Copy), copies[st].Lparen), Kind: Copy, Node: st, File: file, Func: f.Name})
		}
		armed := map[*ast.IfStmt]bool{}
		for _, root := range f.Roots() {
			root.Walk(func(r *model.Region) {
				switch n := r.Node().(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					if r.Kind.IsLoop() {
						add(Target{ID: r.ID(), Kind: Loop, Node: n, File: file, Func: f.Name})
					}
				case *ast.IfStmt:
					if r.Kind == model.IfThen || r.Kind == model.IfThenElse {
						armed[n] = true
						add(Target{ID: r.ID() + "/then", Kind: ThenArm, Node: n, File: file, Func: f.Name})
						add(Target{ID: r.ID() + "/else", Kind: ElseArm, Node: n, File: file, Func: f.Name})
					}
				case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
					if r.Kind == model.Case {
						for i, c := range clauses(n) {
							add(Target{ID: r.ID() + "/case" + strconv.Itoa(i), Kind: CaseArm, Node: c, File: file, Func: f.Name})
						}
					}
				}
				for _, l := range r.Leaves {
					call := l.Node()
					if call == nil || (l.Kind != model.UserCall && l.Kind != model.LibCall && l.Kind != model.DynCall) {
						continue
					}
					if s, ok := stmts[call]; ok {
						add(Target{ID: l.ID(), Kind: Call, Node: s, File: file, Func: f.Name})
					} else if (l.Kind == model.UserCall || l.Kind == model.DynCall) && inline[call] {
						add(Target{ID: l.ID(), Kind: Call, Node: call, File: file, Func: f.Name})
					}
				}
			})
		}
		if _, ok := f.Syntax.(*ast.RangeStmt); !ok {
			for _, e := range modelTests(f.Syntax, func(n *ast.IfStmt) bool { return armed[n] }) {
				site := f.SiteID("test", e.Pos())
				add(Target{ID: BranchTestID(site, true), Kind: TestTrue, Node: e, File: file, Func: f.Name})
				add(Target{ID: BranchTestID(site, false), Kind: TestFalse, Node: e, File: file, Func: f.Name})
			}
			for _, sw := range TaggedSwitches(f.Syntax) {
				site := f.SiteID("switch", sw.Pos())
				for i, c := range sw.Body.List {
					add(Target{ID: ClauseID(site, i), Kind: CaseArm, Node: c, File: file, Func: f.Name})
				}
				if !hasDefault(sw) {
					add(Target{ID: NoMatchID(site), Kind: CaseArm, Node: sw, File: file, Func: f.Name})
				}
			}
		}
	}
	return dedupe(out), nil
}

// dedupe keeps the first target per node and kind: a statement holds at
// most one call target, a loop one loop target.
func dedupe(ts []Target) []Target {
	type key struct {
		n ast.Node
		k Kind
	}
	seen := map[key]bool{}
	out := ts[:0]
	for _, t := range ts {
		if seen[key{t.Node, t.Kind}] {
			continue
		}
		seen[key{t.Node, t.Kind}] = true
		out = append(out, t)
	}
	return out
}

func clauses(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.SwitchStmt:
		return n.Body.List
	case *ast.TypeSwitchStmt:
		return n.Body.List
	case *ast.SelectStmt:
		return n.Body.List
	}
	return nil
}

// inlineCalls are the calls that no statement timer covers (not in
// stmts) and that can be timed in place (timedInPlace).
func inlineCalls(prog *Program, stmts map[*ast.CallExpr]ast.Stmt) map[*ast.CallExpr]bool {
	m := map[*ast.CallExpr]bool{}
	for _, pkg := range prog.Packages {
		for _, f := range pkg.Syntax {
			deferred := goCalls(f)
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && stmts[call] == nil && !deferred[call] && timedInPlace(pkg.TypesInfo, call) {
					m[call] = true
				}
				return true
			})
		}
	}
	return m
}

// copyStatements maps each statement of the program that is a call of
// the builtin copy, its result unused, to that call.
func copyStatements(prog *Program) map[ast.Stmt]*ast.CallExpr {
	m := map[ast.Stmt]*ast.CallExpr{}
	for _, pkg := range prog.Packages {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.ExprStmt); ok {
					if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
						if b, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Builtin); ok && b.Name() == "copy" {
							m[s] = call
						}
					}
				}
				return true
			})
		}
	}
	return m
}

// copiesIn lists the copy statements of fn's body, not of closures in it
// (functions of their own), in source order.
func copiesIn(fn ast.Node, copies map[ast.Stmt]*ast.CallExpr) []ast.Stmt {
	var out []ast.Stmt
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == fn
		case *ast.ExprStmt:
			if copies[n] != nil {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// callStatements maps each call that is the single call of a statement
// (the statements the instrumenter can time) to that statement.
func callStatements(prog *Program) map[*ast.CallExpr]ast.Stmt {
	m := map[*ast.CallExpr]ast.Stmt{}
	for _, pkg := range prog.Packages {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				var list []ast.Stmt
				switch n := n.(type) {
				case *ast.BlockStmt:
					list = n.List
				case *ast.CaseClause:
					list = n.Body
				case *ast.CommClause:
					list = n.Body
				}
				for _, s := range list {
					if call, _ := singleCall(pkg.TypesInfo, s); call != nil {
						m[call] = s
					}
				}
				return true
			})
		}
	}
	return m
}
