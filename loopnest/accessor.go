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
	var ret ssa.Value
	for _, b := range f.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(r.Results) != 1 || (ret != nil && r.Results[0] != ret) {
			return nil
		}
		ret = r.Results[0]
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
	case *ssa.UnOp:
		if v.Op != token.MUL || !isInteger(v.Type()) {
			break
		}
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		p, ok := fa.X.(*ssa.Parameter)
		i := slices.Index(f.Params, p)
		if !ok || i < 0 {
			break
		}
		if m := c.argField(call.Call.Args[i], fa.Field, v.Type()); m != nil {
			name := fmt.Sprintf("%s.%s", c.fa.render(call.Call.Args[i]), fieldName(fa.X.Type(), fa.Field))
			return &symbolic.Sym{Name: name, Kind: symbolic.Mem, Mem: m}, nil
		}
	}
	return nil, fmt.Errorf("%s in %s is not computed from its parameters", v.Name(), f.Name())
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
	if c.fa.a.storingLoop(chain, t) != nil {
		return nil
	}
	return &symbolic.MemPath{Base: arg, Steps: []symbolic.MemStep{{Field: field}}}
}
