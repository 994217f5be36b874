package model

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// name attaches syntax to f's regions and gives every region and leaf its
// ID. An ID is "Func:word@file.go:+line:col": the function, a kind word
// (idNames, or the leaf kind), and the position of the statement or call
// as the file base name, the line relative to the function's first line and
// the column. Relative lines keep IDs fixed when code elsewhere in the file
// moves; IDs that would repeat get "#2", "#3", ... in tree order. Nothing
// outside the function goes into an ID.
func (f *Func) named() { f.once.Do(f.name) }

func (f *Func) name() {
	if !f.attached && len(f.SSA.Blocks) > 1 {
		f.attach(false)
	}
	n := 0
	f.Walk(func(r *Region) { n += 1 + len(r.Leaves) })
	f.byID = make(map[string]any, n)
	ib := idBuilder{f: f, prefix: f.Name + ":"}
	if f.Syntax != nil {
		ib.tf = f.Fset.File(f.Syntax.Pos())
		ib.base = ib.tf.Line(f.Syntax.Pos())
	}
	f.Walk(func(r *Region) {
		word := idNames[r.Kind]
		if r.Kind == Case && r.node != nil {
			if _, ok := r.node.(*ast.SelectStmt); ok {
				word = "select"
			}
		}
		r.pos = regionPos(r)
		r.id = ib.id(word, r.pos)
		f.byID[r.id] = r
		for _, l := range r.Leaves {
			l.pos = leafPos(l)
			word := l.Kind.String()
			if l.MPI != nil {
				word = "mpi." + l.MPI.Op
			}
			l.id = ib.id(word, l.pos)
			f.byID[l.id] = l
		}
	})
}

// SiteID formats the ID a probe target that is not a region or leaf of
// the tree gets (a copy statement: word "copy", pos its call's opening
// parenthesis), in the same form as the tree's IDs, so that the profiler
// and the prediction name it alike. It is not registered for Region or
// Leaf, and repeats are not numbered.
func (f *Func) SiteID(word string, pos token.Pos) string {
	ib := idBuilder{f: f, prefix: f.Name + ":"}
	if f.Syntax != nil {
		ib.tf = f.Fset.File(f.Syntax.Pos())
		ib.base = ib.tf.Line(f.Syntax.Pos())
	}
	return ib.format(word, pos)
}

// idBuilder formats IDs of one function.
type idBuilder struct {
	f      *Func
	prefix string
	tf     *token.File // the function's file; nil for synthesized functions
	base   int         // the function's first line
	buf    []byte
}

func (ib *idBuilder) id(word string, p token.Pos) string {
	id := ib.format(word, p)
	if _, dup := ib.f.byID[id]; dup {
		for k := 2; ; k++ {
			alt := id + "#" + strconv.Itoa(k)
			if _, dup := ib.f.byID[alt]; !dup {
				return alt
			}
		}
	}
	return id
}

// format is the ID of word at p, without numbering repeats.
func (ib *idBuilder) format(word string, p token.Pos) string {
	b := append(ib.buf[:0], ib.prefix...)
	b = append(b, word...)
	b = append(b, '@')
	switch {
	case !p.IsValid():
		b = append(b, '-')
	case ib.tf != nil && ib.tf.Base() <= int(p) && int(p) <= ib.tf.Base()+ib.tf.Size():
		pos := ib.tf.PositionFor(p, false)
		b = append(b, filepath.Base(pos.Filename)...)
		b = append(b, ":+"...)
		b = strconv.AppendInt(b, int64(pos.Line-ib.base), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(pos.Column), 10)
	default:
		pos := ib.f.Fset.PositionFor(p, false)
		b = append(b, filepath.Base(pos.Filename)...)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(pos.Line), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(pos.Column), 10)
	}
	ib.buf = b
	return string(b)
}

func regionPos(r *Region) token.Pos {
	if r.node != nil {
		return r.node.Pos()
	}
	for _, b := range r.Blocks {
		if p := firstPos(b.Instrs); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

func leafPos(l *Leaf) token.Pos {
	if l.Call != nil {
		// The opening parenthesis: go/ssa knows it without syntax.
		if p := l.Call.Common().Pos(); p.IsValid() {
			return p
		}
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

// callSyntax returns the call expression of f whose Lparen is lparen.
func (f *Func) callSyntax(lparen token.Pos) *ast.CallExpr {
	if f.Syntax != nil {
		return f.callAt(lparen)
	}
	return f.cls.callExpr(lparen)
}
