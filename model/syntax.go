package model

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// span is the source interval covered by a region's positioned instructions.
type span struct{ lo, hi token.Pos }

func (s span) valid() bool { return s.lo.IsValid() }

func (s span) add(p token.Pos) span {
	if !p.IsValid() {
		return s
	}
	if !s.lo.IsValid() || p < s.lo {
		s.lo = p
	}
	if p > s.hi {
		s.hi = p
	}
	return s
}

func (s span) union(t span) span { return s.add(t.lo).add(t.hi) }

// attach finds the syntax of every region of f, bottom-up, and then turns
// if-chains lowered from one switch or select statement into Case regions.
func (f *Func) attach(c *classifier) {
	if f.Syntax == nil || f.File == nil {
		return
	}
	lo, hi := f.Syntax.Pos(), f.Syntax.End()
	spans := map[*Region]span{}
	var visit func(r *Region) span
	visit = func(r *Region) span {
		var s span
		if r.Kind == Basic {
			for _, instr := range r.Entry.Instrs {
				if _, phi := instr.(*ssa.Phi); phi {
					continue
				}
				if p := instr.Pos(); p >= lo && p < hi {
					s = s.add(p)
				}
			}
			spans[r] = s
			return s
		}
		var all, arms span
		for i, ch := range r.Children {
			cs := visit(ch)
			all = all.union(cs)
			if i > 0 {
				arms = arms.union(cs)
			}
		}
		spans[r] = all
		f.attachRegion(r, all, arms, lo, hi)
		return all
	}
	for _, root := range f.Roots() {
		visit(root)
	}
	for _, root := range f.Roots() {
		mergeSwitches(root)
	}
}

// attachRegion sets r.Node: the innermost statement of the kind r expects
// that holds r's decision point and code.
func (f *Func) attachRegion(r *Region, all, arms span, lo, hi token.Pos) {
	want := func(n ast.Node) bool { _, ok := n.(ast.Stmt); return ok }
	need := all
	var anchor token.Pos
	switch {
	case r.Kind.IsLoop():
		want = isLoopStmt
		anchor = condPos(r.Entry)
	case r.Kind == IfThen || r.Kind == IfThenElse || r.Kind == Case || r.Kind == Proper:
		want = isBranchStmt
		anchor = branchPos(r)
		need = arms.add(anchor)
	}
	if !need.valid() {
		return
	}
	if !anchor.IsValid() {
		anchor = need.lo
	}
	path, _ := astutil.PathEnclosingInterval(f.File, anchor, anchor)
	var fallback ast.Node
	for _, n := range path {
		if n.Pos() < lo || n.End() > hi {
			break // left the function (a closure's enclosing function)
		}
		if n.Pos() > need.lo || n.End() <= need.hi {
			continue
		}
		if want(n) {
			r.Node = n
			return
		}
		if _, ok := n.(ast.Stmt); ok && fallback == nil {
			fallback = n
		}
	}
	r.Node = fallback
}

func isLoopStmt(n ast.Node) bool {
	switch n.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}

func isBranchStmt(n ast.Node) bool {
	switch n.(type) {
	case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

func isSwitchStmt(n ast.Node) bool {
	switch n.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

// condPos returns the position of the condition b branches on when b ends
// in an If leaving or staying in r, or NoPos.
func condPos(b *ssa.BasicBlock) token.Pos {
	if len(b.Instrs) == 0 {
		return token.NoPos
	}
	if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
		// Only a condition computed in b is inside the statement; a
		// parameter's position is its declaration.
		if instr, ok := iff.Cond.(ssa.Instruction); ok && instr.Block() == b {
			return iff.Cond.Pos()
		}
	}
	return token.NoPos
}

// branchPos returns the position of the condition of the branch that
// leaves the first child of a branch region for its arms.
func branchPos(r *Region) token.Pos {
	head := r.Children[0]
	for _, b := range head.Blocks {
		for _, s := range b.Succs {
			if !regionHolds(head, s) && regionHolds(r, s) {
				return condPos(b)
			}
		}
	}
	return token.NoPos
}

// mergeSwitches makes an if-region whose statement is a switch or select a
// Case region, and flattens into it the if-regions of the same statement
// among its children: Go's SSA lowers a switch to a chain of tests.
func mergeSwitches(r *Region) {
	for _, ch := range r.Children {
		mergeSwitches(ch)
	}
	if r.Kind != IfThen && r.Kind != IfThenElse && r.Kind != Case && r.Kind != Proper || !isSwitchStmt(r.Node) {
		return
	}
	r.Kind = Case
	var kids []*Region
	for _, ch := range r.Children {
		if ch.Kind == Case && ch.Node == r.Node {
			for _, g := range ch.Children {
				g.Parent = r
				kids = append(kids, g)
			}
			continue
		}
		kids = append(kids, ch)
	}
	if len(kids) != len(r.Children) {
		r.Children = kids
		r.Edges = childEdges(r)
	}
}
