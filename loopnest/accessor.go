package loopnest

import (
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// accessorLen is the length of the slice a call of a program function
// returns when that function writes nothing and returns one slice
// expression with both bounds, a row accessor such as
//
//	func (g *grid) row(k int) []float64 { return g.v[k*g.w : (k+1)*g.w] }
//
// hi - lo, with the callee's parameters replaced by the call's arguments
// and its loads of their fields read from memory at the nest's entry
// (MemPath): `for j := range g.row(k)` then counts g.w per row, where the
// call's result, computed in the loop around, left the count unknown.
func (c *exprCtx) accessorLen(call *ssa.Call, depth int) (symbolic.Expr, bool) {
	f := call.Call.StaticCallee()
	if f == nil || !c.fa.a.own(f) || !c.fa.a.neverStores(f, 0) {
		return nil, false
	}
	sl, ok := SingleResult(f).(*ssa.Slice)
	if !ok || sl.High == nil {
		return nil, false
	}
	hi, err := c.calleeExpr(call, sl.High, depth+1)
	if err != nil {
		return nil, false
	}
	if sl.Low == nil {
		return hi, true
	}
	lo, err := c.calleeExpr(call, sl.Low, depth+1)
	if err != nil {
		return nil, false
	}
	return symbolic.NewSub(hi, lo), true
}

// SingleResult is the one value every return of f returns, nil if f
// returns several values or different ones (a row accessor's slice
// expression).
func SingleResult(f *ssa.Function) ssa.Value {
	if f.Signature.Results().Len() != 1 {
		return nil
	}
	return ResultAt(f, 0)
}

// ResultAt is the value every return of f returns as its result k, nil
// if they differ.
func ResultAt(f *ssa.Function, k int) ssa.Value {
	var ret ssa.Value
	for _, b := range f.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if k >= len(r.Results) || (ret != nil && r.Results[k] != ret) {
			return nil
		}
		ret = r.Results[k]
	}
	return ret
}

// calleeExpr is the expression, in the caller's terms, of the integer v
// that call's callee computes from its parameters: constants, arithmetic,
// parameters (the call's arguments) and fields of the structs they point
// to.
func (c *exprCtx) calleeExpr(call *ssa.Call, v ssa.Value, depth int) (symbolic.Expr, error) {
	if depth > maxExprDepth {
		return nil, errors.New("callee expression too deep")
	}
	f := call.Call.StaticCallee()
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || v.Value.Kind() != constant.Int {
			break
		}
		if n, exact := constant.Int64Val(v.Value); exact {
			return symbolic.Const(n), nil
		}
	case *ssa.Parameter:
		if i := slices.Index(f.Params, v); i >= 0 && isInteger(v.Type()) {
			return c.expr(call.Call.Args[i], depth+1)
		}
	case *ssa.BinOp:
		op, ok := binOps[v.Op]
		if !ok || !isInteger(v.Type()) {
			break
		}
		x, err := c.calleeExpr(call, v.X, depth+1)
		if err != nil {
			return nil, err
		}
		y, err := c.calleeExpr(call, v.Y, depth+1)
		if err != nil {
			return nil, err
		}
		return op(x, y), nil
	case *ssa.Convert:
		if isInteger(v.Type()) && isInteger(v.X.Type()) {
			return c.calleeExpr(call, v.X, depth+1)
		}
	case *ssa.Call:
		// len of a slice parameter (its argument's length) or of a
		// parameter's slice field (read from memory at the nest's entry).
		arg, ok := lenArg(v)
		if !ok {
			break
		}
		if p, isParam := arg.(*ssa.Parameter); isParam {
			if i := slices.Index(f.Params, p); i >= 0 {
				return c.length(call.Call.Args[i], depth+1)
			}
			break
		}
		p, field, byValue, ok := paramFieldOf(f, arg)
		if !ok {
			break
		}
		if m, name := c.paramFieldPath(call, p, field, byValue, arg.Type(), depth); m != nil {
			return &symbolic.Sym{Name: "len(" + name + ")", Kind: symbolic.Len, Mem: m}, nil
		}
	case *ssa.Field, *ssa.UnOp:
		// A field of a parameter: of a struct passed by value (a value
		// receiver, d.Local() reading d.n), read where the argument is,
		// the struct value itself or the memory the loop loaded it
		// from; or of the struct a pointer parameter points to.
		p, field, byValue, ok := paramField(f, v)
		if !ok {
			break
		}
		if m, name := c.paramFieldPath(call, p, field, byValue, v.Type(), depth); m != nil {
			return &symbolic.Sym{Name: name, Kind: symbolic.Mem, Mem: m}, nil
		}
	}
	return nil, fmt.Errorf("%s in %s is not computed from its parameters", v.Name(), f.Name())
}

// paramFieldPath is the path, from the call's argument for p, to field
// field (of type t) of the struct p is or points to (byValue: is), and
// the field's name in the caller's terms; nil when it cannot be read at
// the nest's entry (argField, valueField).
func (c *exprCtx) paramFieldPath(call *ssa.Call, p *ssa.Parameter, field int, byValue bool, t types.Type, depth int) (*symbolic.MemPath, string) {
	arg := call.Call.Args[slices.Index(call.Call.StaticCallee().Params, p)]
	var m *symbolic.MemPath
	if byValue {
		m = c.valueField(arg, field, depth)
	} else {
		m = c.argField(arg, field, t)
	}
	return m, fmt.Sprintf("%s.%s", c.fa.render(arg), fieldName(p.Type(), field))
}

// argField is the path to field field of the struct that arg, a pointer
// known before the loops a nest holding c's loop could extend to, points
// to; nil when arg is computed in them or when one of those loops may
// store a value of the field's type t.
func (c *exprCtx) argField(arg ssa.Value, field int, t types.Type) *symbolic.MemPath {
	chain := c.nestable()
	if len(chain) == 0 {
		return nil
	}
	if _, isConst := arg.(*ssa.Const); isConst {
		return nil
	}
	if b := blockOf(arg); b != nil && chain[len(chain)-1].Contains(b) {
		return nil
	}
	if c.fa.a.storingLoop(chain, loaded{t: t}) != nil {
		return nil
	}
	return &symbolic.MemPath{Base: arg, Steps: []symbolic.MemStep{{Field: field}}}
}

// valueField is the path to field field of arg, a struct value: from arg
// itself when it is known before the loops a nest holding c's loop could
// extend to, or from the memory it was loaded from (f.d, loaded in the
// loop's header, of a pointer f known before it) when those loops store
// nothing of its type; nil otherwise.
func (c *exprCtx) valueField(arg ssa.Value, field int, depth int) *symbolic.MemPath {
	chain := c.nestable()
	if len(chain) == 0 {
		return nil
	}
	if _, isConst := arg.(*ssa.Const); isConst {
		return nil
	}
	if b := blockOf(arg); b == nil || !chain[len(chain)-1].Contains(b) {
		return &symbolic.MemPath{Base: arg, Steps: []symbolic.MemStep{{Field: field}}}
	}
	ld, ok := arg.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	m := c.memPath(ld, depth)
	if m == nil {
		return nil
	}
	return &symbolic.MemPath{Base: m.Base, Steps: append(slices.Clip(m.Steps), symbolic.MemStep{Field: field})}
}

// computedFromParams reports whether v, in f, is an integer that f
// computes from its parameters as calleeExpr restates it, with the types
// of the fields it loads through pointer parameters (which a loop around
// the call must not store for the result to stay the same).
func computedFromParams(f *ssa.Function, v ssa.Value, depth int) (loads []types.Type, ok bool) {
	if depth > maxExprDepth {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return nil, v.Value != nil && v.Value.Kind() == constant.Int
	case *ssa.Parameter:
		return nil, slices.Contains(f.Params, v) && isInteger(v.Type())
	case *ssa.BinOp:
		if _, ok := binOps[v.Op]; !ok || !isInteger(v.Type()) {
			return nil, false
		}
		x, ok1 := computedFromParams(f, v.X, depth+1)
		y, ok2 := computedFromParams(f, v.Y, depth+1)
		return append(x, y...), ok1 && ok2
	case *ssa.Convert:
		if !isInteger(v.Type()) || !isInteger(v.X.Type()) {
			return nil, false
		}
		return computedFromParams(f, v.X, depth+1)
	case *ssa.Field, *ssa.UnOp:
		_, _, byValue, ok := paramField(f, v)
		if !ok || byValue {
			return nil, ok
		}
		return []types.Type{v.Type()}, true // loaded through a pointer
	case *ssa.Call:
		arg, ok := lenArg(v)
		if !ok {
			return nil, false
		}
		if p, isParam := arg.(*ssa.Parameter); isParam {
			return nil, slices.Contains(f.Params, p)
		}
		_, _, byValue, ok := paramFieldOf(f, arg)
		if !ok || byValue {
			return nil, ok
		}
		return []types.Type{arg.Type()}, true
	}
	return nil, false
}

// lenArg is the operand of len(x) for a slice or string x.
func lenArg(call *ssa.Call) (ssa.Value, bool) {
	b, ok := call.Common().Value.(*ssa.Builtin)
	if !ok || b.Name() != "len" || len(call.Common().Args) != 1 || !hasLen(call.Common().Args[0].Type()) {
		return nil, false
	}
	return call.Common().Args[0], true
}

// paramField recognizes v, an integer in f, as field field of parameter
// p: of a struct passed by value (p.field, or its load from the local
// go/ssa copies p to), or of the struct a pointer parameter points to
// (a load through p).
func paramField(f *ssa.Function, v ssa.Value) (p *ssa.Parameter, field int, byValue, ok bool) {
	if !isInteger(v.Type()) {
		return nil, 0, false, false
	}
	return paramFieldOf(f, v)
}

// paramFieldOf is paramField for a field of any type (a slice whose
// length a method returns).
func paramFieldOf(f *ssa.Function, v ssa.Value) (p *ssa.Parameter, field int, byValue, ok bool) {
	switch v := v.(type) {
	case *ssa.Field:
		p, ok = v.X.(*ssa.Parameter)
		return p, v.Field, true, ok && slices.Contains(f.Params, p)
	case *ssa.UnOp:
		fa, isField := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !isField {
			return nil, 0, false, false
		}
		if p = spilledParam(fa.X); p != nil {
			return p, fa.Field, true, slices.Contains(f.Params, p)
		}
		p, ok = fa.X.(*ssa.Parameter)
		return p, fa.Field, false, ok && slices.Contains(f.Params, p)
	}
	return nil, 0, false, false
}

// spilledParam is the parameter that addr, a stack variable of its
// function, holds a copy of and nothing else: go/ssa copies a struct
// parameter whose fields are read (d.n of a value receiver) to a local,
// stored once from the parameter and never again. Nil otherwise.
func spilledParam(addr ssa.Value) *ssa.Parameter {
	al, ok := addr.(*ssa.Alloc)
	if !ok || al.Heap {
		return nil
	}
	var param *ssa.Parameter
	for _, ref := range *al.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			p, ok := r.Val.(*ssa.Parameter)
			if !ok || r.Addr != al || param != nil {
				return nil
			}
			param = p
		case *ssa.FieldAddr:
			for _, use := range *r.Referrers() {
				if ld, ok := use.(*ssa.UnOp); !ok || ld.Op != token.MUL {
					return nil // written or passed on
				}
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return param
}
