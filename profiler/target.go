package profiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
)

// Kind says what a probe target is.
type Kind string

// Target kinds.
const (
	FuncBody Kind = "func" // body of a function or function literal
	Loop     Kind = "loop" // for or range statement
	ThenArm  Kind = "then" // then block of an if
	ElseArm  Kind = "else" // else block of an if (present or not in the source)
	CaseArm  Kind = "case" // case clause of a switch or select
	Call     Kind = "call" // statement calling one user or library function
	// Copy is a statement that is a call of the builtin copy: timed and
	// counted like a loop whose iterations are the elements it copies,
	// so that the prediction charges it per element.
	Copy Kind = "copy"
	// TestTrue and TestFalse count the outcomes of one of a loop's exit
	// tests (ExitTests); the instrumenter adds them to loops in the
	// counting run, with IDs from TestID.
	TestTrue  Kind = "true"
	TestFalse Kind = "false"
)

// known reports whether k is one of the kinds above.
func (k Kind) known() bool {
	switch k {
	case FuncBody, Loop, ThenArm, ElseArm, CaseArm, Call, Copy, TestTrue, TestFalse:
		return true
	}
	return false
}

// Target is one region the instrumenter places probes at. It is the seam
// with the model: the model supplies its regions' IDs and AST nodes, and
// AST-derived targets (ASTTargets) stand in where it does not.
type Target struct {
	ID   string
	Kind Kind
	// Node is the statement or function the region comes from, in a file
	// parsed with the package's FileSet: *ast.FuncDecl or *ast.FuncLit
	// (FuncBody), *ast.ForStmt or *ast.RangeStmt (Loop), *ast.IfStmt
	// (ThenArm, ElseArm), *ast.CaseClause or *ast.CommClause (CaseArm),
	// and the statement holding the call (Call).
	Node ast.Node
	File string // absolute path of the file holding Node
	Func string // enclosing function, e.g. "main.step" or "main.main$1"
}

// RegionID is the ID scheme: function, kind and source position of the
// statement, e.g. "main.step:loop@heat.go:41:2".
func RegionID(fn string, kind Kind, pos token.Position) string {
	return fmt.Sprintf("%s:%s@%s:%d:%d", fn, kind, filepath.Base(pos.Filename), pos.Line, pos.Column)
}
