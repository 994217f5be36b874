package model

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strings"

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

// attach finds the syntax of every region of f, bottom-up, and then, if
// merge is set, turns if-chains lowered from one switch or select statement
// into Case regions. Building a function merges (and so attaches) at once
// only when its blocks hint at a switch or select; the others attach when
// their IDs are first needed, without merging, so kinds never change later.
func (f *Func) attach(merge bool) {
	f.attached = true
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
		if r.Kind.IsLoop() {
			// The loop's statement holds its cycle; code after it that
			// the structure folded into the region (the blocks a
			// compound exit test leaves to, up to where they join) is
			// not in it.
			f.attachRegion(r, cycleSpan(r, spans), arms)
		} else {
			f.attachRegion(r, all, arms)
		}
		return all
	}
	for _, root := range f.Roots() {
		visit(root)
	}
	if !merge {
		return
	}
	for _, root := range f.Roots() {
		mergeSwitches(root)
	}
}

// cycleSpan is the span of the basic regions of loop r whose blocks lie
// on a cycle through its entry (reach the entry again within r).
func cycleSpan(r *Region, spans map[*Region]span) span {
	in := map[*ssa.BasicBlock]bool{}
	for _, b := range r.Blocks {
		in[b] = true
	}
	onCycle := map[*ssa.BasicBlock]bool{r.Entry: true}
	work := []*ssa.BasicBlock{r.Entry}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range b.Preds {
			if in[p] && !onCycle[p] {
				onCycle[p] = true
				work = append(work, p)
			}
		}
	}
	var s span
	r.Walk(func(d *Region) {
		if d.Kind == Basic && onCycle[d.Entry] {
			s = s.union(spans[d])
		}
	})
	return s
}

// hasSwitch reports whether fn's blocks come from a switch or select
// statement, going by go/ssa's block comments. It only decides when to look
// at syntax; the structure itself never depends on comments.
func hasSwitch(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		c := b.Comment
		if strings.HasPrefix(c, "switch") || strings.HasPrefix(c, "typeswitch") || strings.HasPrefix(c, "select") {
			return true
		}
	}
	return false
}

// attachRegion sets r.node: the innermost statement of the kind r expects
// that holds r's decision point and code.
func (f *Func) attachRegion(r *Region, all, arms span) {
	want := func(n ast.Node) bool { _, ok := n.(ast.Stmt); return ok }
	need := all
	switch {
	case r.Kind.IsLoop():
		want = isLoopStmt
	case r.Kind == IfThen || r.Kind == IfThenElse || r.Kind == Case || r.Kind == Proper:
		want = isBranchStmt
		need = arms.add(branchPos(r))
	}
	if !need.valid() {
		return
	}
	stmts := f.statements()
	i := stmts.innermost(need)
	if i < 0 {
		return
	}
	// A loop whose own code has no position of its own (the counter of
	// `for i := range a` around `for j := range a[i]`) spans only its
	// inner loop's code: its statement is the next loop out from the
	// statements its inner loops already hold.
	taken := map[ast.Node]bool{}
	if r.Kind.IsLoop() {
		for _, ch := range r.Children {
			ch.Walk(func(d *Region) {
				if d.Kind.IsLoop() && d.node != nil {
					taken[d.node] = true
				}
			})
		}
	}
	for j := i; j >= 0; j = stmts.parent[j] {
		if want(stmts.list[j]) && !taken[stmts.list[j]] {
			r.node = stmts.list[j]
			return
		}
	}
	r.node = stmts.list[i]
}

// stmtIndex lists the statements of a function body in source order (which
// is preorder), each with the index of the statement enclosing it, so the
// innermost statement around an interval is a binary search and a walk up.
type stmtIndex struct {
	list   []ast.Stmt
	parent []int
}

// statements indexes f's statements, not those of closures inside it
// (they are functions of their own). It visits statements only, not
// expressions, which keeps it cheap.
func (f *Func) statements() *stmtIndex {
	if f.stmts != nil {
		return f.stmts
	}
	var list []ast.Stmt
	var parent []int
	var visit func(st ast.Stmt, up int)
	visitList := func(stmts []ast.Stmt, up int) {
		for _, st := range stmts {
			visit(st, up)
		}
	}
	visit = func(st ast.Stmt, up int) {
		if st == nil {
			return
		}
		if b, ok := st.(*ast.BlockStmt); ok && b == nil {
			return
		}
		me := len(list)
		list = append(list, st)
		parent = append(parent, up)
		switch st := st.(type) {
		case *ast.BlockStmt:
			visitList(st.List, me)
		case *ast.LabeledStmt:
			visit(st.Stmt, me)
		case *ast.IfStmt:
			visit(st.Init, me)
			visit(st.Body, me)
			visit(st.Else, me)
		case *ast.ForStmt:
			visit(st.Init, me)
			visit(st.Post, me)
			visit(st.Body, me)
		case *ast.RangeStmt:
			visit(st.Body, me)
		case *ast.SwitchStmt:
			visit(st.Init, me)
			visit(st.Body, me)
		case *ast.TypeSwitchStmt:
			visit(st.Init, me)
			visit(st.Assign, me)
			visit(st.Body, me)
		case *ast.SelectStmt:
			visit(st.Body, me)
		case *ast.CaseClause:
			visitList(st.Body, me)
		case *ast.CommClause:
			visit(st.Comm, me)
			visitList(st.Body, me)
		}
	}
	switch fn := f.Syntax.(type) {
	case *ast.FuncDecl:
		if fn.Body != nil {
			visit(fn.Body, -1)
		}
	case *ast.FuncLit:
		visit(fn.Body, -1)
	case *ast.RangeStmt: // the yield function of a range-over-func loop
		visit(fn.Body, -1)
	}
	// The walk is in source order except that a for statement's post
	// statement is visited before its body; it is a leaf, so a stable sort
	// by position restores source order, and parents are renumbered.
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(list[a].Pos() - list[b].Pos()) })
	where := make([]int, len(order))
	for to, from := range order {
		where[from] = to
	}
	idx := &stmtIndex{list: make([]ast.Stmt, len(order)), parent: make([]int, len(order))}
	for to, from := range order {
		idx.list[to] = list[from]
		idx.parent[to] = -1
		if up := parent[from]; up >= 0 {
			idx.parent[to] = where[up]
		}
	}
	f.stmts = idx
	return idx
}

// callAt returns the call syntax of f whose opening parenthesis is at lparen.
func (f *Func) callAt(lparen token.Pos) *ast.CallExpr {
	f.callsOnce.Do(func() {
		ast.Inspect(f.Syntax, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return n == f.Syntax
			case *ast.CallExpr:
				f.calls = append(f.calls, n)
			}
			return true
		})
		slices.SortFunc(f.calls, func(a, b *ast.CallExpr) int { return int(a.Lparen - b.Lparen) })
	})
	i, found := slices.BinarySearchFunc(f.calls, lparen, func(c *ast.CallExpr, p token.Pos) int { return int(c.Lparen - p) })
	if !found {
		return nil
	}
	return f.calls[i]
}

// innermost returns the index of the innermost statement holding s, or -1.
func (x *stmtIndex) innermost(s span) int {
	i := sort.Search(len(x.list), func(i int) bool { return x.list[i].Pos() > s.lo }) - 1
	for ; i >= 0; i = x.parent[i] {
		if st := x.list[i]; st.Pos() <= s.lo && s.hi < st.End() {
			return i
		}
	}
	return -1
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
			if !head.Contains(s) && r.Contains(s) {
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
	if r.Kind != IfThen && r.Kind != IfThenElse && r.Kind != Case && r.Kind != Proper || !isSwitchStmt(r.node) {
		return
	}
	r.Kind = Case
	var kids []*Region
	for _, ch := range r.Children {
		if ch.Kind == Case && ch.node == r.node {
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
