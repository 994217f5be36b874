package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"

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

	leafOf []*Region // by block index: the Basic region of the block
	byID   map[string]any
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
	r, _ := f.byID[id].(*Region)
	return r
}

// Leaf returns the leaf with the given ID, or nil.
func (f *Func) Leaf(id string) *Leaf {
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
	f = &Func{SSA: fn, Name: name, Fset: fn.Prog.Fset, leafOf: make([]*Region, len(fn.Blocks))}
	f.Syntax = fn.Syntax()
	f.File = cls.fileOf(fn.Pos())
	for _, b := range fn.Blocks {
		r := &Region{Kind: Basic, Entry: b, Blocks: []*ssa.BasicBlock{b}, Func: f}
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
	f.name(cls)
	return f, nil
}

// sortedIDs returns the IDs of the function's regions and leaves, sorted.
func (f *Func) sortedIDs() []string {
	ids := make([]string, 0, len(f.byID))
	for id := range f.byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
