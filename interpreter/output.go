package interpreter

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// The fmt functions are evaluated where their arguments are known:
// Sprintf and friends return the text (a panic's or an error's message
// then reads as the program's), and what the printing ones write is kept,
// the last lines per rank, so that a rank that stops (Abort, os.Exit, a
// panic) says what the program printed before: usually why.

// fmtArgs says where a fmt function's format (-1: none) and its variadic
// operands are among the call's arguments.
var fmtArgs = map[string]struct{ format, operands int }{
	"fmt.Sprintf": {0, 1}, "fmt.Sprint": {-1, 0}, "fmt.Sprintln": {-1, 0},
	"fmt.Printf": {0, 1}, "fmt.Print": {-1, 0}, "fmt.Println": {-1, 0},
	"fmt.Fprintf": {1, 2}, "fmt.Fprint": {-1, 1}, "fmt.Fprintln": {-1, 1},
}

// format is the text the fmt function name makes of args, when the
// format and every operand are known numbers, bools or strings of types
// without methods (whose String would change the text).
func format(name string, args []value) (string, bool) {
	where, ok := fmtArgs[name]
	if !ok || where.operands >= len(args) {
		return "", false
	}
	ops, ok := goOperands(args[where.operands])
	if !ok {
		return "", false
	}
	if where.format >= 0 {
		f := args[where.format]
		if f.k != vString {
			return "", false
		}
		return fmt.Sprintf(f.str(), ops...), true
	}
	if strings.HasSuffix(name, "ln") {
		return fmt.Sprintln(ops...), true
	}
	return fmt.Sprint(ops...), true
}

// goOperands turns a ...any slice of known values into Go values.
func goOperands(s value) ([]any, bool) {
	if s.k == vNil {
		return nil, true
	}
	if s.k != vSlice || s.obj == nil || s.n > 64 {
		return nil, false
	}
	out := make([]any, s.n)
	for j := range s.n {
		v := s.obj.get(s.i + j)
		if v.k != vIface || v.obj == nil || v.obj.t == nil {
			return nil, false
		}
		g, ok := goValue(v.obj.get(0), v.obj.t)
		if !ok {
			return nil, false
		}
		out[j] = g
	}
	return out, true
}

// methodSets caches the method sets goValue asks for, once per type
// rather than per printed operand.
var methodSets typeutil.MethodSetCache

// goValue is v, of type t, as the Go value fmt would print the same way.
func goValue(v value, t types.Type) (any, bool) {
	if n, named := types.Unalias(t).(*types.Named); named && len(typeutil.IntuitiveMethodSet(n, &methodSets)) > 0 {
		return nil, false
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil, false
	}
	info := b.Info()
	switch {
	case v.k == vInt && info&types.IsUnsigned != 0:
		return uint64(v.i), true
	case v.k == vInt && info&types.IsInteger != 0:
		return v.i, true
	case v.k == vFloat && b.Kind() == types.Float32:
		return float32(v.fl()), true
	case v.k == vFloat:
		return v.fl(), true
	case v.k == vBool:
		return v.i != 0, true
	case v.k == vString:
		return v.str(), true
	case v.k == vComplex:
		return complex(v.fl(), v.im()), true
	}
	return nil, false
}

// printedLines is how many of its last printed lines a rank keeps.
const printedLines = 3

// remember keeps text the rank printed, its last printedLines lines.
func (r *ssaRank) remember(text string) {
	r.printed = append(r.printed, strings.Split(strings.TrimRight(text, "\n"), "\n")...)
	if n := len(r.printed); n > printedLines {
		r.printed = append(r.printed[:0], r.printed[n-printedLines:]...)
	}
}

// printedNote is what the rank printed last, for the error of a rank
// that stops: "" when nothing known.
func (r *ssaRank) printedNote() string {
	if len(r.printed) == 0 {
		return ""
	}
	return "; it printed before: " + strings.Join(r.printed, " / ")
}

// formatCall evaluates a fmt call whose text is known: Sprintf and its
// kin return it (true), the printing ones remember it and are costed as
// library calls (false).
func (r *ssaRank) formatCall(f *frame, in *ssa.Call, name string, args []value) bool {
	text, ok := format(name, args)
	if !ok {
		return false
	}
	if strings.HasPrefix(name, "fmt.Sprint") {
		r.set(f, strv(text))
		return true
	}
	r.remember(text)
	return false
}
