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
		return nil, fmt.Errorf("%s is computed inside the loop", c.fa.render(v))
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
		if v.Op == token.MUL {
			if m := c.memPath(v, depth); m != nil {
				return &symbolic.Sym{Name: c.fa.render(v), Kind: symbolic.Mem, Mem: m}, nil
			}
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
	case *ssa.Extract:
		// One result of a program function computing several from its
		// arguments (lo, hi := span(n, size, r) before a loop over a
		// rank's rows).
		if call, ok := v.Tuple.(*ssa.Call); ok && isInteger(v.Type()) && call.Common().StaticCallee() != nil {
			if e, ok := c.restatedResult(call, ResultAt(call.Common().StaticCallee(), v.Index), depth); ok {
				return c.named(v, e), nil
			}
		}
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
			name := b.Name() + "(" + c.fa.render(arg) + ")"
			if ld, ok := arg.(*ssa.UnOp); ok && ld.Op == token.MUL && kind == symbolic.Len {
				if m := c.memPath(ld, depth); m != nil {
					// Read at the nest's entry: the len call itself, in
					// the nest, is never executed.
					return &symbolic.Sym{Name: name, Kind: kind, Of: arg, Mem: m}, nil
				}
			}
			if ac, ok := arg.(*ssa.Call); ok && kind == symbolic.Len {
				if n, ok := c.accessorLen(ac, depth); ok {
					return c.named(v, n), nil
				}
			}
			if sl, ok := arg.(*ssa.Slice); ok && kind == symbolic.Len {
				// A range over a slice cut in the loop around (for _, x
				// := range pts[i*d:(i+1)*d]): its bounds' difference.
				if n, err := c.length(sl, depth+1); err == nil {
					return c.named(v, n), nil
				}
			}
			c.noteInEnclosing(arg)
			if kind == symbolic.Len && hasLen(arg.Type()) && blockOf(arg) != blockOf(v) {
				// The evaluator binds the length of the operand, known
				// before the loop, where the len call itself may be in
				// the loop's header (len(x) re-evaluated every
				// iteration), which a reduced nest never executes.
				return &symbolic.Sym{Name: name, Kind: kind, Value: arg, Of: arg}, nil
			}
			return &symbolic.Sym{Name: name, Kind: kind, Value: v, Of: arg}, nil
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
		// A method of the program that computes the bound from its
		// receiver (l < d.Local()).
		if e, ok := c.restatedResult(v, SingleResult(callee), depth); ok {
			return c.named(v, e), nil
		}
	}
	return c.leaf(v, symbolic.Pre), nil
}

// restatedResult is res, a result of call, in the caller's terms, when
// the callee is a pure program function computing it from its arguments
// and the call is one a reduced nest holding c's loop does not execute:
// in the loop (its header), or in a loop around it (m := other.len()
// before the inner loop; for an expression at a call or a test in a
// loop's own code, siteExpr, that loop). One before the loops (range
// m.rows()) is a value the rank has at the entry.
func (c *exprCtx) restatedResult(call *ssa.Call, res ssa.Value, depth int) (symbolic.Expr, bool) {
	b := blockOf(call)
	if b == nil || !c.loop.Contains(b) && !c.inEnclosing(b) {
		return nil, false
	}
	if _, pure := c.fa.pureIntResult(call, res); !pure {
		return nil, false
	}
	e, err := c.calleeExpr(call, res, depth+1)
	return e, err == nil
}

// inEnclosing reports whether b is in a loop around c's loop.
func (c *exprCtx) inEnclosing(b *ssa.BasicBlock) bool {
	for p := c.loop.Parent; p != nil; p = p.Parent {
		if p.Contains(b) {
			return true
		}
	}
	return false
}

// leaf makes an opaque symbol for v: a value computed before the loop that
// the expression does not look into. One computed inside an enclosing loop
// (a load, a call) changes from one entry of the loop to the next in ways
// only the data decide.
func (c *exprCtx) leaf(v ssa.Value, kind symbolic.SymKind) symbolic.Expr {
	c.noteInEnclosing(v)
	return &symbolic.Sym{Name: c.fa.render(v), Kind: kind, Value: v}
}

func (c *exprCtx) noteInEnclosing(v ssa.Value) {
	b := blockOf(v)
	if b == nil {
		return
	}
	if other := c.fa.otherLoop(c.loop, v); other != nil {
		c.dataDep = append(c.dataDep, fmt.Sprintf("bound uses %s, computed by the loop %s", c.fa.render(v), other.ID))
		return
	}
	if _, ok := v.(*ssa.Phi); !ok && !isMemoryOrOpaque(v) {
		return
	}
	// Only loops that could be in a nest with this one matter: a value
	// computed in a loop that communicates (a time-step loop) is known
	// whenever the nest is entered.
	chain := c.nestable()
	for _, p := range chain[1:] {
		if p.Contains(b) {
			c.dataDep = append(c.dataDep, fmt.Sprintf("bound uses %s, computed in the enclosing loop %s", c.fa.render(v), p.ID))
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
	if name := c.fa.sourceName(v); name != "" {
		return &symbolic.Sym{Name: name, Kind: symbolic.Pre, Value: v, Def: e}
	}
	return e
}

// sourceName is the name of the local variable v was assigned to: from the
// debug references that ssa.GlobalDebug mode records, else from the
// function's syntax (lo := rank*n/size names the product lo). "" if none.
func (fa *funcAnalysis) sourceName(v ssa.Value) string {
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if d, ok := r.(*ssa.DebugRef); ok && !d.IsAddr {
				if id, ok := d.Expr.(*ast.Ident); ok && id.Name != "_" {
					return id.Name
				}
			}
		}
	}
	switch v := v.(type) {
	case *ssa.BinOp, *ssa.Call, *ssa.UnOp, *ssa.Convert, *ssa.MakeSlice, *ssa.Slice:
		return fa.assigned()[posIdx{v.Pos(), -1}]
	case *ssa.Extract:
		// first, stride, count := myRows(...)
		return fa.assigned()[posIdx{v.Tuple.Pos(), v.Index}]
	}
	return ""
}

// posIdx keys assigned names: an expression's position, and for the
// results of a multi-valued call, the result's index (-1 otherwise).
type posIdx struct {
	pos token.Pos
	idx int
}

// assigned maps the position go/ssa gives an expression's value (the
// operator of a binary or unary expression, the parenthesis of a call) to
// the variable a short declaration, assignment or var spec gives it.
func (fa *funcAnalysis) assigned() map[posIdx]string {
	if fa.names != nil {
		return fa.names
	}
	fa.names = map[posIdx]string{}
	add := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(rhs) == 1 && len(lhs) > 1 {
			if call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
				for i, l := range lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						fa.names[posIdx{call.Lparen, i}] = id.Name
					}
				}
			}
			return
		}
		if len(lhs) != len(rhs) {
			return
		}
		for i, r := range rhs {
			id, ok := lhs[i].(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			switch r := ast.Unparen(r).(type) {
			case *ast.BinaryExpr:
				fa.names[posIdx{r.OpPos, -1}] = id.Name
			case *ast.UnaryExpr:
				fa.names[posIdx{r.OpPos, -1}] = id.Name
			case *ast.StarExpr:
				fa.names[posIdx{r.Star, -1}] = id.Name
			case *ast.CallExpr:
				fa.names[posIdx{r.Lparen, -1}] = id.Name
			case *ast.SliceExpr:
				fa.names[posIdx{r.Lbrack, -1}] = id.Name
			}
		}
	}
	if syn := fa.fn.Syntax(); syn != nil {
		ast.Inspect(syn, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return n == syn
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE || n.Tok == token.ASSIGN {
					add(n.Lhs, n.Rhs)
				}
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(n.Names))
				for i, id := range n.Names {
					lhs[i] = id
				}
				add(lhs, n.Values)
			}
			return true
		})
	}
	return fa.names
}

// render prints v as Go source where it can: parameter and variable names,
// *p, x.f, a[i], f(...).
func (fa *funcAnalysis) render(v ssa.Value) string {
	return fa.renderDepth(v, 0)
}

func (fa *funcAnalysis) renderDepth(v ssa.Value, depth int) string {
	if depth > 4 {
		return v.Name()
	}
	if name := fa.sourceName(v); name != "" {
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
			switch x := v.X.(type) {
			case *ssa.Global, *ssa.Alloc:
				// Loading a package or local variable reads the variable.
				return fa.renderDepth(v.X, depth+1)
			case *ssa.FreeVar:
				if boxed(x) {
					return fa.renderDepth(v.X, depth+1)
				}
			case *ssa.FieldAddr, *ssa.IndexAddr:
				// p.f and a[i] read through the address implicitly.
				return fa.renderDepth(v.X, depth+1)
			}
			return "*" + fa.renderDepth(v.X, depth+1)
		}
	case *ssa.FieldAddr:
		return fa.renderDepth(v.X, depth+1) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.Field:
		return fa.renderDepth(v.X, depth+1) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.IndexAddr:
		return fa.renderDepth(v.X, depth+1) + "[" + fa.renderDepth(v.Index, depth+1) + "]"
	case *ssa.Index:
		return fa.renderDepth(v.X, depth+1) + "[" + fa.renderDepth(v.Index, depth+1) + "]"
	case *ssa.Convert:
		return fa.renderDepth(v.X, depth+1)
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

func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

func blockOf(v ssa.Value) *ssa.BasicBlock {
	if in, ok := v.(ssa.Instruction); ok {
		return in.Block()
	}
	return nil
}

// boxed reports whether the free variable is a captured variable's box (the
// closure may assign it) rather than its value: the closure was made with
// an Alloc for it.
func boxed(fv *ssa.FreeVar) bool {
	fn := fv.Parent()
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	if fn.Parent() == nil || idx < 0 {
		return false
	}
	for _, b := range fn.Parent().Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx < len(mc.Bindings) {
				_, isAlloc := mc.Bindings[idx].(*ssa.Alloc)
				return isAlloc
			}
		}
	}
	return false
}

// otherLoop returns the loop, neither l nor one enclosing it, in which v (or,
// for a phi, one of its incoming values) is computed: a result of earlier
// loop work, which the interpreter does not compute when that work is
// skipped. Nil if there is none.
func (fa *funcAnalysis) otherLoop(l *Loop, v ssa.Value) *Loop {
	vals := []ssa.Value{v}
	if phi, ok := v.(*ssa.Phi); ok {
		vals = append(vals, phi.Edges...)
	}
	for _, x := range vals {
		b := blockOf(x)
		if b == nil {
			continue
		}
		for _, o := range fa.loops {
			if o.Contains(b) && !encloses(o, l) {
				return o
			}
		}
	}
	return nil
}

// encloses reports whether o is l or one of l's ancestors.
func encloses(o, l *Loop) bool {
	for p := l; p != nil; p = p.Parent {
		if p == o {
			return true
		}
	}
	return false
}
