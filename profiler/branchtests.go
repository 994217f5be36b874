package profiler

import (
	"go/ast"
	"go/token"
	"strconv"
)

// BranchTests returns the branch tests of one function's body, not of the
// function literals in it (they are functions of their own), in source
// order: the leaves of each if statement's condition (its tree of &&, ||
// and !, each of which the SSA builder turns into an If of its own), each
// case expression of a switch without a tag that is not itself a && or
// || (go/ssa tests such an expression's value with one If), and the
// tested operands of each && or || whose value is used, not branched on
// (ValueTests: `ok := a && b`, `return x > 0 || y > 0`).
//
// The counting binary counts the outcomes of the tests that nothing else
// answers (modelTests): the prediction gives an If on an unknown value
// the profile's share of true outcomes of its test, where before the
// arms of switch clauses, the parts of compound conditions and the ifs
// the model holds in no if region (an if-else chain in a loop with MPI
// calls, an arm that returns) were taken half the time.
func BranchTests(body ast.Node) []ast.Expr {
	var tests []ast.Expr
	values := valueLogicals(body)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == body
		case *ast.IfStmt:
			tests = testLeaves(tests, n.Cond)
		case *ast.SwitchStmt:
			tests = append(tests, caseTests(n)...)
		case *ast.BinaryExpr:
			if values[n] {
				tests = ValueTests(tests, n)
			}
		}
		return true
	})
	return tests
}

// ValueTests appends the operands that a && or || whose value is used
// branches on: go/ssa evaluates such an expression by testing its left
// operand's tree of &&, || and ! as a condition (an If per leaf) and
// taking its right operand's value, which is tested only where it is a
// && or || itself. In `ok := a && b` only a is tested.
func ValueTests(tests []ast.Expr, e *ast.BinaryExpr) []ast.Expr {
	tests = testLeaves(tests, e.X)
	if y, ok := ast.Unparen(e.Y).(*ast.BinaryExpr); ok && (y.Op == token.LAND || y.Op == token.LOR) {
		return ValueTests(tests, y)
	}
	return tests
}

// valueLogicals returns the && and || expressions in n whose value is
// used rather than branched on (ValueTests), outermost ones only: not
// those in the condition of an if or for statement or a case of a switch
// without a tag (go/ssa branches on every leaf of those), nor the right
// operands that ValueTests follows. Function literals are included.
func valueLogicals(n ast.Node) map[*ast.BinaryExpr]bool {
	inCond := map[ast.Expr]bool{}
	var markCond func(e ast.Expr)
	markCond = func(e ast.Expr) {
		if e == nil {
			return
		}
		inCond[e] = true
		switch x := e.(type) {
		case *ast.ParenExpr:
			markCond(x.X)
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				markCond(x.X)
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				markCond(x.X)
				markCond(x.Y)
			}
		}
	}
	values := map[*ast.BinaryExpr]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			markCond(n.Cond)
		case *ast.ForStmt:
			markCond(n.Cond)
		case *ast.SwitchStmt:
			if n.Tag == nil {
				for _, st := range n.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						markCond(e)
					}
				}
			}
		case *ast.BinaryExpr:
			if (n.Op != token.LAND && n.Op != token.LOR) || inCond[n] {
				break
			}
			values[n] = true
			// What ValueTests takes of it is accounted for.
			markCond(n.X)
			for y := n; ; {
				next, ok := ast.Unparen(y.Y).(*ast.BinaryExpr)
				if !ok || (next.Op != token.LAND && next.Op != token.LOR) {
					break
				}
				inCond[next] = true
				markCond(next.X)
				y = next
			}
		}
		return true
	})
	return values
}

// caseTests are the case expressions of a switch without a tag that are
// not themselves && or || (go/ssa tests such an expression's value with
// one If); none for a switch with a tag.
func caseTests(sw *ast.SwitchStmt) []ast.Expr {
	if sw.Tag != nil {
		return nil
	}
	var tests []ast.Expr
	for _, st := range sw.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
				continue
			}
			tests = append(tests, ast.Unparen(e))
		}
	}
	return tests
}

// BranchTestID is the ID of the counter of a branch test's outcome: the
// test's site ID (model.Func.SiteID with the word "test" and the test's
// position) with "/true" or "/false" appended.
func BranchTestID(siteID string, outcome bool) string {
	if outcome {
		return siteID + "/true"
	}
	return siteID + "/false"
}

// modelTests returns the branch tests of body that need counters of their
// own: those of if statements the model has no if region for (armed
// false) or whose condition has more than one leaf, and every case
// expression of a switch without a tag. A single test of an if region is
// answered by its then arm's count, and a loop's exit tests
// (ExitTests) are counted with the loop's own counters.
func modelTests(body ast.Node, armed func(*ast.IfStmt) bool) []ast.Expr {
	skip := map[ast.Expr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == body
		case *ast.IfStmt:
			if leaves := testLeaves(nil, n.Cond); len(leaves) == 1 && armed(n) {
				skip[leaves[0]] = true
			}
		case *ast.ForStmt, *ast.RangeStmt:
			for _, e := range ExitTests(n.(ast.Stmt)) {
				skip[e] = true
			}
		}
		return true
	})
	var out []ast.Expr
	for _, e := range BranchTests(body) {
		if !skip[e] {
			out = append(out, e)
		}
	}
	return out
}

// TaggedSwitches returns the switch statements with a tag in one
// function's body (not in its function literals) whose clauses the
// counting binary counts, so that the prediction knows how often each
// of their case values matched: those without fallthrough, which would
// count a clause entered from the one above as a match.
func TaggedSwitches(body ast.Node) []*ast.SwitchStmt {
	var out []*ast.SwitchStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == body
		case *ast.SwitchStmt:
			if clausesCounted(n) {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// clausesCounted reports whether the counting binary counts the clauses
// of s (TaggedSwitches).
func clausesCounted(s *ast.SwitchStmt) bool { return s.Tag != nil && !fallsThrough(s) }

// fallsThrough reports whether a clause of s ends in fallthrough.
func fallsThrough(s *ast.SwitchStmt) bool {
	for _, st := range s.Body.List {
		body := st.(*ast.CaseClause).Body
		if len(body) == 0 {
			continue
		}
		if b, ok := body[len(body)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
			return true
		}
	}
	return false
}

// ClauseID is the ID of the counter of clause i (from 0, in source order)
// of the switch whose site ID (model.Func.SiteID with the word "switch")
// is site; NoMatchID that of the executions in which no clause matched,
// counted in a default clause that the counting binary adds to a switch
// without one.
func ClauseID(site string, i int) string { return site + "/case" + strconv.Itoa(i) }

// NoMatchID: see ClauseID.
func NoMatchID(site string) string { return site + "/nomatch" }

// hasDefault reports whether s has a default clause.
func hasDefault(s *ast.SwitchStmt) bool {
	for _, st := range s.Body.List {
		if st.(*ast.CaseClause).List == nil {
			return true
		}
	}
	return false
}
