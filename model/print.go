package model

import (
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// WriteTree prints f's control trees, one region per line, indented by
// depth: kind, ID, absolute position; Basic regions list their block index
// and segment kinds, and call segments follow on lines of their own, MPI
// ones with their operands (message sizes as len(buf)*elemsize).
func WriteTree(w io.Writer, f *Func) error {
	pw := &printer{w: w, f: f}
	pw.printf("func %s  %s\n", f.Name, pw.pos(f.SSA.Pos()))
	for i, root := range f.Roots() {
		if i == 1 {
			pw.printf("  recover:\n")
		}
		pw.region(root, 1)
	}
	return pw.err
}

type printer struct {
	w   io.Writer
	f   *Func
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) pos(pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	at := p.f.Fset.Position(pos)
	return shortPos(at.Filename, at.Line, at.Column)
}

func (p *printer) region(r *Region, depth int) {
	ind := strings.Repeat("  ", depth)
	if r.Kind != Basic {
		p.printf("%s%s %s\n", ind, r.Kind, r.ID())
		for _, ch := range r.Children {
			p.region(ch, depth+1)
		}
		return
	}
	kinds := make([]string, len(r.Leaves))
	for i, l := range r.Leaves {
		kinds[i] = l.Kind.String()
	}
	p.printf("%sbasic b%d %s [%s]\n", ind, r.Entry.Index, r.ID(), strings.Join(kinds, " "))
	for _, l := range r.Leaves {
		if l.Kind == Compute {
			continue
		}
		p.printf("%s  %s\n", ind, LeafString(l))
	}
}

// LeafString describes a call segment in one line: kind, callee or MPI
// operation with operands, and ID.
func LeafString(l *Leaf) string {
	var b strings.Builder
	switch l.Call.(type) {
	case *ssa.Go:
		b.WriteString("go ")
	case *ssa.Defer:
		b.WriteString("defer ")
	}
	b.WriteString(l.Kind.String())
	switch common := l.Call.Common(); {
	case l.MPI != nil:
		b.WriteString(" " + l.MPI.Op)
		for _, a := range l.MPI.Args {
			switch {
			case l.MPI.Send != nil && a.Value == l.MPI.Send.Value && (a.Role == "send" || a.Role == "buf"):
				fmt.Fprintf(&b, " %s=%s", a.Role, l.MPI.Send.SizeExpr())
			case l.MPI.Recv != nil && a.Value == l.MPI.Recv.Value && a.Role == "recv":
				fmt.Fprintf(&b, " %s=%s", a.Role, l.MPI.Recv.SizeExpr())
			default:
				fmt.Fprintf(&b, " %s=%s", a.Role, a.Source())
			}
		}
	case l.Callee != nil:
		b.WriteString(" " + FuncName(l.Callee))
	case common.IsInvoke():
		b.WriteString(" (" + common.Value.Type().String() + ")." + common.Method.Name())
	default:
		b.WriteString(" " + common.Value.String())
	}
	b.WriteString("  " + l.ID())
	return b.String()
}

// shortPos formats a position as file base name, line and column.
func shortPos(filename string, line, col int) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Base(filename), line, col)
}
