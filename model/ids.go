package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/ssa"
)

// name attaches syntax to f's regions and gives every region and leaf its
// ID. An ID is "Func:word@file.go:+line:col": the function, a kind word
// (idNames, or the leaf kind), and the position of the statement or call
// as the file base name, the line relative to the function's first line and
// the column. Relative lines keep IDs fixed when code elsewhere in the file
// moves; IDs that would repeat get "#2", "#3", ... in tree order. Nothing
// outside the function goes into an ID.
func (f *Func) name(c *classifier) {
	f.attach(c)
	base := 0
	if f.Syntax != nil {
		base = f.Fset.Position(f.Syntax.Pos()).Line
	}
	f.byID = map[string]any{}
	seen := map[string]int{}
	unique := func(id string) string {
		seen[id]++
		if n := seen[id]; n > 1 {
			id = fmt.Sprintf("%s#%d", id, n)
		}
		return id
	}
	f.Walk(func(r *Region) {
		word := idNames[r.Kind]
		if r.Kind == Case && r.Node != nil {
			if _, ok := r.Node.(*ast.SelectStmt); ok {
				word = "select"
			}
		}
		r.Pos = regionPos(r)
		r.ID = unique(f.Name + ":" + word + "@" + f.posString(r.Pos, base))
		f.byID[r.ID] = r
		for _, l := range r.Leaves {
			l.Pos = leafPos(l)
			word := l.Kind.String()
			if l.MPI != nil {
				word = "mpi." + l.MPI.Op
			}
			l.ID = unique(f.Name + ":" + word + "@" + f.posString(l.Pos, base))
			f.byID[l.ID] = l
		}
	})
}

func (f *Func) posString(p token.Pos, base int) string {
	if !p.IsValid() {
		return "-"
	}
	pos := f.Fset.Position(p)
	if base == 0 {
		return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
	}
	return fmt.Sprintf("%s:+%d:%d", filepath.Base(pos.Filename), pos.Line-base, pos.Column)
}

func regionPos(r *Region) token.Pos {
	if r.Node != nil {
		return r.Node.Pos()
	}
	for _, b := range r.Blocks {
		if p := firstPos(b.Instrs); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

func leafPos(l *Leaf) token.Pos {
	if l.Node != nil {
		return l.Node.Pos()
	}
	if l.Call != nil {
		return l.Call.Pos()
	}
	return firstPos(l.Instrs())
}

func firstPos(instrs []ssa.Instruction) token.Pos {
	for _, instr := range instrs {
		if _, phi := instr.(*ssa.Phi); phi {
			continue
		}
		if p := instr.Pos(); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}
