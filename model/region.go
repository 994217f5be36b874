package model

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Region is a node of a control tree. A Basic region stands for one SSA
// block and holds that block's segments (Leaves); every other region holds
// child regions. Every region has a single entry, Entry's block, which
// dominates all its blocks (improper regions included: their entry is the
// nearest common dominator of the cycle's entries).
type Region struct {
	Kind     Kind
	id       string            // see ID
	Entry    *ssa.BasicBlock   // the block control enters the region through
	Blocks   []*ssa.BasicBlock // all blocks of the region, in tree order
	Children []*Region         // in reduction order; Children[0] holds Entry
	Parent   *Region           // nil for a function's root
	Func     *Func

	// Edges are the control-flow edges between children, as pairs of child
	// indexes, sorted. An edge into a child always enters at its entry.
	Edges [][2]int

	node ast.Node
	pos  token.Pos // see Pos

	Leaves []*Leaf // Basic regions only: the block's segments in order
}

// Leaf is a segment of a basic block: a run of instructions without calls,
// or one call.
type Leaf struct {
	Kind  LeafKind
	id    string
	Block *ssa.BasicBlock
	Start int // index of the segment's first instruction in Block.Instrs
	End   int // one past its last instruction

	// Call is the call instruction of a call segment: *ssa.Call, *ssa.Go or
	// *ssa.Defer. Callee is its static callee, nil for dynamic calls.
	Call   ssa.CallInstruction
	Callee *ssa.Function
	MPI    *MPIOp // MPICall segments only

	node   *ast.CallExpr
	pos    token.Pos
	Region *Region // the Basic region holding this leaf
}

// Node returns the syntax the region stands for: the *ast.ForStmt or
// *ast.RangeStmt of a loop, the *ast.IfStmt, *ast.SwitchStmt,
// *ast.TypeSwitchStmt or *ast.SelectStmt of a branch, otherwise the
// innermost statement holding the region's code. Nil when the region has no
// code with positions (for example a block with only a jump).
func (r *Region) Node() ast.Node { r.Func.named(); return r.node }

// ID returns the region's stable ID: function, kind word and statement
// position (see doc.go). IDs are made on first use, for the whole function.
func (r *Region) ID() string { r.Func.named(); return r.id }

// Pos returns the position the ID names: the statement's, or that of the
// region's first instruction with a position.
func (r *Region) Pos() token.Pos { r.Func.named(); return r.pos }

// ID returns the leaf's stable ID (see doc.go).
func (l *Leaf) ID() string { l.Region.Func.named(); return l.id }

// Pos returns the position the ID names: the call expression's for calls.
func (l *Leaf) Pos() token.Pos { l.Region.Func.named(); return l.pos }

// Node returns the *ast.CallExpr of a call segment, nil for computation
// and for calls without syntax.
func (l *Leaf) Node() *ast.CallExpr { l.Region.Func.named(); return l.node }

// Instrs returns the instructions of the segment.
func (l *Leaf) Instrs() []ssa.Instruction { return l.Block.Instrs[l.Start:l.End] }

// Walk calls f for r and every region below it, parents before children.
func (r *Region) Walk(f func(*Region)) {
	f(r)
	for _, c := range r.Children {
		c.Walk(f)
	}
}

// Contains reports whether b is one of the region's blocks.
func (r *Region) Contains(b *ssa.BasicBlock) bool {
	for x := r.Func.leafOf[b.Index]; x != nil; x = x.Parent {
		if x == r {
			return true
		}
	}
	return false
}

// Loop describes a loop region in CFG terms, for induction-variable analysis.
type Loop struct {
	Header    *ssa.BasicBlock
	Body      []*ssa.BasicBlock    // all blocks of the loop, header included
	BackEdges [][2]*ssa.BasicBlock // (latch, header)
	Exits     [][2]*ssa.BasicBlock // (block inside, successor outside)
}

// Loop returns the CFG view of a loop region, or nil if r is not a loop.
func (r *Region) Loop() *Loop {
	if !r.Kind.IsLoop() {
		return nil
	}
	l := &Loop{Header: r.Entry, Body: r.Blocks}
	for _, b := range r.Blocks {
		for _, s := range b.Succs {
			switch {
			case s == r.Entry:
				l.BackEdges = append(l.BackEdges, [2]*ssa.BasicBlock{b, s})
			case !r.Contains(s):
				l.Exits = append(l.Exits, [2]*ssa.BasicBlock{b, s})
			}
		}
	}
	return l
}
