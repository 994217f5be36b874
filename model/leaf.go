package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// classifier splits blocks into segments and classifies calls. It knows the
// analysed packages and the syntax of their files.
type classifier struct {
	user  map[*ssa.Package]bool
	files map[*token.File]*ast.File
	fset  *token.FileSet
	sizes types.Sizes
	calls map[*ast.File]map[token.Pos]*ast.CallExpr // by Lparen, built on demand

	instance func(*ssa.Function) // told of every generic instance called
	mu       sync.Mutex          // guards calls
}

func (c *classifier) fileOf(pos token.Pos) *ast.File {
	if !pos.IsValid() {
		return nil
	}
	return c.files[c.fset.File(pos)]
}

// callExpr returns the call syntax whose opening parenthesis is at lparen.
func (c *classifier) callExpr(lparen token.Pos) *ast.CallExpr {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.fileOf(lparen)
	if f == nil {
		return nil
	}
	idx, ok := c.calls[f]
	if !ok {
		idx = map[token.Pos]*ast.CallExpr{}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				idx[call.Lparen] = call
			}
			return true
		})
		c.calls[f] = idx
	}
	return idx[lparen]
}

// segments splits b at its calls: each call (builtins aside) is a segment of
// its own, and the instructions between calls are computation segments.
func (c *classifier) segments(f *Func, b *ssa.BasicBlock) []*Leaf {
	var out []*Leaf
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, &Leaf{Kind: Compute, Block: b, Start: start, End: end})
		}
		start = end
	}
	for i, instr := range b.Instrs {
		ci, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		common := ci.Common()
		if _, builtin := common.Value.(*ssa.Builtin); builtin && !common.IsInvoke() {
			continue
		}
		flush(i)
		out = append(out, c.callLeaf(f, b, i, ci))
		start = i + 1
	}
	flush(len(b.Instrs))
	return out
}

func (c *classifier) callLeaf(f *Func, b *ssa.BasicBlock, i int, ci ssa.CallInstruction) *Leaf {
	l := &Leaf{Block: b, Start: i, End: i + 1, Call: ci}
	common := ci.Common()
	if common.IsInvoke() {
		l.Kind = DynCall
		return l
	}
	l.Callee = common.StaticCallee()
	if l.Callee != nil && l.Callee.Origin() != nil && c.instance != nil {
		c.instance(l.Callee)
	}
	switch {
	case l.Callee == nil:
		l.Kind = DynCall
	case isMPI(l.Callee) && token.IsExported(mpiName(l.Callee)):
		l.Kind = MPICall
		l.MPI = newMPIOp(common, l.Callee, f.callSyntax(common.Pos()), c.sizes)
	case c.isUser(l.Callee):
		l.Kind = UserCall
	default:
		l.Kind = LibCall
	}
	return l
}

// isUser reports whether fn belongs to the analysed packages (instances
// count as their generic function; closures as their enclosing package).
func (c *classifier) isUser(fn *ssa.Function) bool {
	return c.user[pkgOf(fn)]
}

// pkgOf returns the package fn is declared in, looking through instances
// and closures; nil for synthetic wrappers.
func pkgOf(fn *ssa.Function) *ssa.Package {
	for fn != nil {
		if o := fn.Origin(); o != nil {
			fn = o
		}
		if fn.Pkg != nil {
			return fn.Pkg
		}
		fn = fn.Parent()
	}
	return nil
}
