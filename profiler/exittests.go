package profiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// ExitTests returns the tests by which a loop (*ast.ForStmt or
// *ast.RangeStmt) may end on data, in source order: the operands of its
// condition (the leaves of its tree of &&, || and !, through parentheses,
// each of which the SSA builder turns into an If of its own) and of the
// condition of each if statement of its body that leaves it (its then
// block ends in a break or a return). A loop that can leave by more than
// one test needs each test's outcomes counted: from its exit rate alone,
// `for step < max && change > tol` left by the first test in the profile
// would leave at the same rate when max is larger. The result is nil for
// a loop with a single test, whose exit rate says all.
func ExitTests(loop ast.Stmt) []ast.Expr {
	var tests []ast.Expr
	var body *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		tests = testLeaves(tests, l.Cond)
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	default:
		return nil
	}
	for _, st := range body.List {
		if s, ok := st.(*ast.IfStmt); ok && leavesLoop(s.Body) {
			tests = testLeaves(tests, s.Cond)
		}
	}
	// A range loop ends when its range does, so one exit test is enough
	// to need counts; a for loop needs two.
	if _, ranged := loop.(*ast.RangeStmt); len(tests) < 2 && !(ranged && len(tests) == 1) {
		return nil
	}
	return tests
}

// testLeaves appends the leaves of cond's tree of &&, || and !.
func testLeaves(leaves []ast.Expr, cond ast.Expr) []ast.Expr {
	if cond == nil {
		return leaves
	}
	switch x := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return testLeaves(testLeaves(leaves, x.X), x.Y)
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return testLeaves(leaves, x.X)
		}
	}
	return append(leaves, ast.Unparen(cond))
}

// leavesLoop reports whether a then block directly in a loop's body ends
// by leaving the loop: a return, or a break (without a label it is the
// loop's own; with one, this loop's or an outer one's).
func leavesLoop(then *ast.BlockStmt) bool {
	if len(then.List) == 0 {
		return false
	}
	switch s := then.List[len(then.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.BREAK
	}
	return false
}

// TestID is the ID of the counter of the outcome (true or false) of test
// i (an index into ExitTests) of loop loopID's condition.
func TestID(loopID string, i int, outcome bool) string {
	return fmt.Sprintf("%s/test%d/%t", loopID, i, outcome)
}

// plainBools reports whether every test is of type bool itself (or an
// untyped boolean), so that it can be passed to the probe's func(bool).
func plainBools(info *types.Info, tests []ast.Expr) bool {
	for _, e := range tests {
		t := info.TypeOf(e)
		if t == nil {
			return false
		}
		if b, ok := types.Unalias(t).(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
			return false
		}
	}
	return true
}
