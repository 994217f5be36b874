package profiler

import (
	"go/ast"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// argUnits is the expression a library call site (call of callee) counts
// as its iterations: the sum of the lengths of its slice and string
// arguments (the receiver left out), from which a prediction costs the
// call by the lengths it is given (a sort of a rank's share) instead of
// per call. It is "" for calls of the program's own functions, of a
// variadic function without "..." (its arguments are packed into a slice
// the syntax does not show), when no argument has a length, and when an
// argument could have effects or depend on them, since the length is
// evaluated once more before the call.
func (fi *fileInstr) argUnits(call *ast.CallExpr, callee *types.Func) string {
	if callee == nil || call == nil || fi.isOwn(callee) {
		return ""
	}
	sig, ok := callee.Type().(*types.Signature)
	if !ok || sig.Variadic() && !call.Ellipsis.IsValid() {
		return ""
	}
	var lens []string
	for _, a := range call.Args {
		if !HasLength(fi.pkg.TypesInfo.TypeOf(a)) {
			continue
		}
		if !fi.effectFree(a) {
			return ""
		}
		lens = append(lens, "len("+fi.source(a)+")")
	}
	return strings.Join(lens, "+")
}

// HasLength reports whether values of t have a length that a library
// call's work may follow and the interpreter knows: slices and strings
// (a map's size is lost once a reduced nest writes it).
func HasLength(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// effectFree reports whether evaluating e twice cannot change what the
// program does: names, fields, constants, indexing, slicing, len, cap
// and conversions of such.
func (fi *fileInstr) effectFree(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return fi.effectFree(e.X)
	case *ast.SelectorExpr:
		return fi.effectFree(e.X)
	case *ast.StarExpr:
		return fi.effectFree(e.X)
	case *ast.IndexExpr:
		return fi.effectFree(e.X) && fi.effectFree(e.Index)
	case *ast.SliceExpr:
		for _, x := range []ast.Expr{e.Low, e.High, e.Max} {
			if x != nil && !fi.effectFree(x) {
				return false
			}
		}
		return fi.effectFree(e.X)
	case *ast.BinaryExpr:
		return fi.effectFree(e.X) && fi.effectFree(e.Y)
	case *ast.CallExpr:
		if len(e.Args) != 1 || !fi.effectFree(e.Args[0]) {
			return false
		}
		if tv, ok := fi.pkg.TypesInfo.Types[e.Fun]; ok && tv.IsType() {
			return true // a conversion
		}
		b, ok := typeutil.Callee(fi.pkg.TypesInfo, e).(*types.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "cap")
	}
	return false
}

// LibraryUnits are the units of work of a library call site that was
// given iters elements in its execs executions (its Iters and Execs):
// the elements, or for a comparison sort (its time growing as n log n)
// iters x log2 of the mean elements per call. callee is the function as
// the profile names it (Region.Callee).
func LibraryUnits(callee string, iters, execs int64) float64 {
	n := float64(iters)
	if execs > 0 && SortsByLength(callee) {
		n *= math.Log2(max(n/float64(execs), 2))
	}
	return n
}

// SortsByLength reports whether callee, as the profile names it, is a
// comparison sort of the standard library: a call costs n log2 n units
// (LibraryUnits).
func SortsByLength(callee string) bool {
	switch callee {
	case "sort.Sort", "sort.Stable", "sort.Slice", "sort.SliceStable", "sort.Ints", "sort.Float64s", "sort.Strings",
		"slices.Sort", "slices.SortFunc", "slices.SortStableFunc":
		return true
	}
	return false
}

// callsMPI reports whether body calls an MPI operation (a query such as
// Rank aside), outside function literals.
func (fi *fileInstr) callsMPI(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if f, ok := typeutil.Callee(fi.pkg.TypesInfo, n).(*types.Func); ok && mpiOperation(f) {
				found = true
			}
		}
		return !found
	})
	return found
}
