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
	ID       string            // stable: function, kind word and statement position; see doc.go
	Entry    *ssa.BasicBlock   // the block control enters the region through
	Blocks   []*ssa.BasicBlock // all blocks of the region, by index
	Children []*Region         // in reduction order; Children[0] holds Entry
	Parent   *Region           // nil for a function's root
	Func     *Func

	// Edges are the control-flow edges between children, as pairs of child
	// indexes, sorted. An edge into a child always enters at its entry.
	Edges [][2]int

	// Node is the syntax the region stands for: the *ast.ForStmt or
	// *ast.RangeStmt of a loop, the *ast.IfStmt, *ast.SwitchStmt,
	// *ast.TypeSwitchStmt or *ast.SelectStmt of a branch, otherwise the
	// innermost statement holding the region's code. Nil when the region
	// has no code with positions (for example a block with only a jump).
	Node ast.Node
	Pos  token.Pos // the position in the ID

	Leaves []*Leaf // Basic regions only: the block's segments in order
}

// Leaf is a segment of a basic block: a run of instructions without calls,
// or one call.
type Leaf struct {
	Kind  LeafKind
	ID    string
	Block *ssa.BasicBlock
	Start int // index of the segment's first instruction in Block.Instrs
	End   int // one past its last instruction

	// Call is the call instruction of a call segment: *ssa.Call, *ssa.Go or
	// *ssa.Defer. Callee is its static callee, nil for dynamic calls.
	Call   ssa.CallInstruction
	Callee *ssa.Function
	MPI    *MPIOp // MPICall segments only

	Node   ast.Node // the *ast.CallExpr of a call segment; nil for computation
	Pos    token.Pos
	Region *Region // the Basic region holding this leaf
}

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
