package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Func is one analysed function with its control tree.
type Func struct {
	SSA  *ssa.Function
	Name string // package name and function, as in IDs: "main.step", "main.main$1", "heat.(*Grid).Swap"

	// Tree is the control tree of the blocks reachable from the entry;
	// Recover, if not nil, that of the blocks reachable only from the
	// function's Recover block (where a recovered panic resumes).
	Tree    *Region
	Recover *Region

	Syntax ast.Node  // *ast.FuncDecl or *ast.FuncLit; nil for synthesized functions
	File   *ast.File // the file holding Syntax
	Fset   *token.FileSet

	cls      *classifier
	once     sync.Once       // makes IDs on first use
	attached bool            // syntax found for the regions
	leafOf   []*Region       // by block index: the Basic region of the block
	stmts    *stmtIndex      // built on demand
	calls    []*ast.CallExpr // by Lparen, built on demand
	byID     map[string]any
}

// BasicOf returns the Basic region of block b; its Leaves are b's segments
// and its Parent chain the regions enclosing b.
func (f *Func) BasicOf(b *ssa.BasicBlock) *Region { return f.leafOf[b.Index] }

// LeafAt returns the segment of b holding instruction index i.
func (f *Func) LeafAt(b *ssa.BasicBlock, i int) *Leaf {
	for _, l := range f.leafOf[b.Index].Leaves {
		if i >= l.Start && i < l.End {
			return l
		}
	}
	return nil
}

// Region returns the region with the given ID, or nil.
func (f *Func) Region(id string) *Region {
	f.named()
	r, _ := f.byID[id].(*Region)
	return r
}

// Leaf returns the leaf with the given ID, or nil.
func (f *Func) Leaf(id string) *Leaf {
	f.named()
	l, _ := f.byID[id].(*Leaf)
	return l
}

// Roots returns the function's trees: Tree, then Recover if present.
func (f *Func) Roots() []*Region {
	if f.Recover != nil {
		return []*Region{f.Tree, f.Recover}
	}
	return []*Region{f.Tree}
}

// Walk calls fn for every region of the function's trees.
func (f *Func) Walk(fn func(*Region)) {
	for _, r := range f.Roots() {
		r.Walk(fn)
	}
}

// buildFunc builds the control trees of fn. The classifier decides what
// kind of leaf each call is.
func buildFunc(fn *ssa.Function, name string, cls *classifier) (f *Func, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("model: panic during control tree construction of %s: %v", fn, p)
		}
	}()
	f = &Func{SSA: fn, Name: name, Fset: fn.Prog.Fset, cls: cls, leafOf: make([]*Region, len(fn.Blocks))}
	f.Syntax = fn.Syntax()
	f.File = cls.fileOf(fn.Pos())
	basics := make([]Region, len(fn.Blocks)) // one allocation for all leaves
	for i, b := range fn.Blocks {
		r := &basics[i]
		*r = Region{Kind: Basic, Entry: b, Func: f}
		r.Leaves = cls.segments(f, b)
		for _, l := range r.Leaves {
			l.Region = r
		}
		f.leafOf[b.Index] = r
	}
	f.Tree, err = newGraph(f, fn.Blocks[0]).reduce()
	if err != nil {
		return nil, fmt.Errorf("model: structural analysis of %s: %w", fn, err)
	}
	if fn.Recover != nil && f.leafOf[fn.Recover.Index].Parent == nil && fn.Recover != fn.Blocks[0] {
		if f.Recover, err = newGraph(f, fn.Recover).reduce(); err != nil {
			return nil, fmt.Errorf("model: structural analysis of %s (recover): %w", fn, err)
		}
	}
	f.layout()
	if hasSwitch(fn) {
		f.attach(true)
	}
	return f, nil
}

// layout gives every region its Blocks: leaves are laid out in tree order
// in one array, so each region's blocks are a contiguous part of it.
func (f *Func) layout() {
	order := make([]*ssa.BasicBlock, 0, len(f.SSA.Blocks))
	var visit func(r *Region)
	visit = func(r *Region) {
		lo := len(order)
		if r.Kind == Basic {
			order = append(order, r.Entry)
		}
		for _, c := range r.Children {
			visit(c)
		}
		r.Blocks = order[lo:len(order):len(order)]
	}
	for _, root := range f.Roots() {
		visit(root)
	}
}
