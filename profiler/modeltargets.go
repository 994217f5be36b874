package profiler

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/types/typeutil"
)

// ModelTargets builds the model of prog's packages and turns its regions
// into probe targets, so that every measurement is keyed by a model ID:
// loops by their loop region's ID, function bodies by their tree's root
// ID, library, user and dynamic call segments by the leaf's ID. Branch
// arms are not regions of their own in the model; they get the ID of
// their if or switch region with "/then", "/else" or "/caseN" (N the
// clause's index, from 0) appended.
func ModelTargets(prog *Program) ([]Target, error) {
	ssaProg, spkgs := model.BuildSSA(prog.Packages)
	mp, err := model.Build(ssaProg, prog.Packages, spkgs)
	if mp == nil {
		return nil, fmt.Errorf("profiler: building the model: %w", err)
	}
	// Build reports functions it could not model alongside the others;
	// those keep no probes, the rest are used.
	stmts := callStatements(prog)
	seen := map[ast.Node]bool{}
	var out []Target
	add := func(t Target) { out = append(out, t) }
	for _, f := range mp.Funcs {
		if f.Syntax == nil || f.Tree == nil || seen[f.Syntax] {
			continue // synthesized, or a generic instance of a function already done
		}
		seen[f.Syntax] = true
		file := prog.Fset.Position(f.Syntax.Pos()).Filename
		add(Target{ID: f.Tree.ID(), Kind: FuncBody, Node: f.Syntax, File: file, Func: f.Name})
		for _, cs := range copyStatements(prog, f.Syntax) {
			add(Target{ID: f.SiteID(string(Copy), cs.call.Lparen), Kind: Copy, Node: cs.stmt, File: file, Func: f.Name})
		}
		for _, root := range f.Roots() {
			root.Walk(func(r *model.Region) {
				switch n := r.Node().(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					if r.Kind.IsLoop() {
						add(Target{ID: r.ID(), Kind: Loop, Node: n, File: file, Func: f.Name})
					}
				case *ast.IfStmt:
					if r.Kind == model.IfThen || r.Kind == model.IfThenElse {
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
					}
				}
			})
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

type copyStmt struct {
	stmt ast.Stmt
	call *ast.CallExpr
}

// copyStatements lists the statements of fn's body (not of closures in
// it) that are a call of the builtin copy, its result unused.
func copyStatements(prog *Program, fn ast.Node) []copyStmt {
	var info *types.Info
	for _, p := range prog.Packages {
		for _, f := range p.Syntax {
			if f.Pos() <= fn.Pos() && fn.End() <= f.End() {
				info = p.TypesInfo
			}
		}
	}
	if info == nil {
		return nil
	}
	var out []copyStmt
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == fn
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok {
				if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok && b.Name() == "copy" {
					out = append(out, copyStmt{n, call})
				}
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
