package loopnest

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// exprCtx turns SSA values defined outside a loop into trip-count
// expressions and collects what they depend on.
type exprCtx struct {
	fa      *funcAnalysis
	loop    *Loop
	dataDep []string // why the expression is data-dependent
}

const maxExprDepth = 48

// expr returns the expression for v, which the loop's exit test compares
// against. It fails when v is computed inside the loop.
func (c *exprCtx) expr(v ssa.Value, depth int) (symbolic.Expr, error) {
	if k, ok := v.(*ssa.Const); ok {
		if k.Value == nil || k.Value.Kind() != constant.Int {
			return nil, fmt.Errorf("constant %s is not an integer", k)
		}
		n, exact := constant.Int64Val(k.Value)
		if !exact {
			return nil, fmt.Errorf("constant %s overflows int64", k)
		}
		return symbolic.Const(n), nil
	}
	if !c.fa.invariant(c.loop, v) {
		return nil, fmt.Errorf("%s is computed inside the loop", render(v))
	}
	if depth > maxExprDepth {
		return c.leaf(v, symbolic.Pre), nil
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return &symbolic.Sym{Name: v.Name(), Kind: symbolic.Param, Value: v}, nil
	case *ssa.FreeVar:
		return &symbolic.Sym{Name: v.Name(), Kind: symbolic.FreeVar, Value: v}, nil
	case *ssa.Phi:
		if iv := c.fa.ivs[v]; iv != nil {
			return &symbolic.Sym{Name: iv.Name, Kind: symbolic.Induction, Value: v}, nil
		}
		return c.leaf(v, symbolic.Pre), nil
	case *ssa.BinOp:
		if !isInteger(v.Type()) {
			break
		}
		op, ok := binOps[v.Op]
		if !ok {
			break
		}
		x, err := c.expr(v.X, depth+1)
		if err != nil {
			return nil, err
		}
		y, err := c.expr(v.Y, depth+1)
		if err != nil {
			return nil, err
		}
		return c.named(v, op(x, y)), nil
	case *ssa.UnOp:
		if v.Op == token.SUB && isInteger(v.Type()) {
			x, err := c.expr(v.X, depth+1)
			if err != nil {
				return nil, err
			}
			return c.named(v, symbolic.NewNeg(x)), nil
		}
		kind := symbolic.Pre
		if _, ok := v.X.(*ssa.FreeVar); ok && v.Op == token.MUL {
			kind = symbolic.FreeVar
		}
		return c.leaf(v, kind), nil
	case *ssa.Convert:
		if isInteger(v.Type()) && isInteger(v.X.Type()) {
			return c.expr(v.X, depth+1)
		}
	case *ssa.Call:
		return c.call(v, depth)
	}
	return c.leaf(v, symbolic.Pre), nil
}

var binOps = map[token.Token]func(x, y symbolic.Expr) symbolic.Expr{
	token.ADD: symbolic.NewAdd,
	token.SUB: symbolic.NewSub,
	token.MUL: symbolic.NewMul,
	token.QUO: symbolic.NewDiv,
	token.REM: symbolic.NewRem,
}

func (c *exprCtx) call(v *ssa.Call, depth int) (symbolic.Expr, error) {
	common := v.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "len", "cap":
			kind := symbolic.Len
			if b.Name() == "cap" {
				kind = symbolic.Cap
			}
			arg := common.Args[0]
			c.noteInEnclosing(arg)
			return &symbolic.Sym{Name: b.Name() + "(" + render(arg) + ")", Kind: kind, Value: v}, nil
		case "min", "max":
			args := make([]symbolic.Expr, len(common.Args))
			for i, a := range common.Args {
				e, err := c.expr(a, depth+1)
				if err != nil {
					return nil, err
				}
				args[i] = e
			}
			if b.Name() == "min" {
				return c.named(v, symbolic.NewMin(args...)), nil
			}
			return c.named(v, symbolic.NewMax(args...)), nil
		}
	}
	if callee := common.StaticCallee(); callee != nil {
		if path, name := qualified(callee); path == MPIPath {
			switch name {
			case "Comm.Rank":
				return &symbolic.Sym{Name: "rank", Kind: symbolic.Rank, Value: v}, nil
			case "Comm.Size":
				return &symbolic.Sym{Name: "size", Kind: symbolic.Size, Value: v}, nil
			}
		}
	}
	return c.leaf(v, symbolic.Pre), nil
}

// leaf makes an opaque symbol for v: a value computed before the loop that
// the expression does not look into. One computed inside an enclosing loop
// (a load, a call) changes from one entry of the loop to the next in ways
// only the data decide.
func (c *exprCtx) leaf(v ssa.Value, kind symbolic.SymKind) symbolic.Expr {
	c.noteInEnclosing(v)
	return &symbolic.Sym{Name: render(v), Kind: kind, Value: v}
}

func (c *exprCtx) noteInEnclosing(v ssa.Value) {
	b := blockOf(v)
	if b == nil {
		return
	}
	if _, ok := v.(*ssa.Phi); !ok && !isMemoryOrOpaque(v) {
		return
	}
	for p := c.loop.Parent; p != nil; p = p.Parent {
		if p.Contains(b) {
			c.dataDep = append(c.dataDep, fmt.Sprintf("bound uses %s, computed in the enclosing loop %s", render(v), p.ID))
			return
		}
	}
}

// isMemoryOrOpaque reports whether v's value is not a function of other
// SSA values that the analysis follows: loads, non-builtin calls, extracts.
func isMemoryOrOpaque(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType, *ssa.Const, *ssa.Parameter, *ssa.FreeVar:
		return false
	case *ssa.UnOp:
		return v.Op == token.MUL || v.Op == token.ARROW
	}
	return true
}

// named wraps e in a symbol when v has a source name, so expressions print
// as hi-lo rather than as the expansion of hi and lo; the definition stays
// attached for evaluation.
func (c *exprCtx) named(v ssa.Value, e symbolic.Expr) symbolic.Expr {
	if _, ok := e.(symbolic.Const); ok {
		return e
	}
	if name := sourceName(v); name != "" {
		return &symbolic.Sym{Name: name, Kind: symbolic.Pre, Value: v, Def: e}
	}
	return e
}

// sourceName is the name of the local variable v was assigned to, from the
// debug references that ssa.GlobalDebug mode records ("" without them).
func sourceName(v ssa.Value) string {
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if d, ok := r.(*ssa.DebugRef); ok && !d.IsAddr {
				if id, ok := d.Expr.(*ast.Ident); ok && id.Name != "_" {
					return id.Name
				}
			}
		}
	}
	return ""
}

// render prints v as Go source where it can: parameter and variable names,
// *p, x.f, a[i], f(...).
func render(v ssa.Value) string {
	return renderDepth(v, 0)
}

func renderDepth(v ssa.Value, depth int) string {
	if depth > 4 {
		return v.Name()
	}
	if name := sourceName(v); name != "" {
		return name
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return v.Name()
	case *ssa.Const:
		if v.Value != nil {
			return v.Value.ExactString()
		}
	case *ssa.Phi:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.Alloc:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			switch v.X.(type) {
			case *ssa.FreeVar, *ssa.Global, *ssa.Alloc:
				// Loading a captured or package variable reads the variable.
				return renderDepth(v.X, depth+1)
			}
			return "*" + renderDepth(v.X, depth+1)
		}
	case *ssa.FieldAddr:
		return renderDepth(v.X, depth+1) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.Field:
		return renderDepth(v.X, depth+1) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.IndexAddr:
		return renderDepth(v.X, depth+1) + "[" + renderDepth(v.Index, depth+1) + "]"
	case *ssa.Index:
		return renderDepth(v.X, depth+1) + "[" + renderDepth(v.Index, depth+1) + "]"
	case *ssa.Convert:
		return renderDepth(v.X, depth+1)
	case *ssa.Call:
		if callee := v.Common().StaticCallee(); callee != nil {
			return callee.Name() + "(...)"
		}
	}
	return v.Name()
}

func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return fmt.Sprint(i)
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func blockOf(v ssa.Value) *ssa.BasicBlock {
	if in, ok := v.(ssa.Instruction); ok {
		return in.Block()
	}
	return nil
}
