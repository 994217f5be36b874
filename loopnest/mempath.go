package loopnest

import (
	"go/token"
	"go/types"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// memPath describes the load v as memory read along a path from a value
// known before the loops around it (a struct's field through a pointer
// parameter, what a captured variable holds, the row i of a 2-D slice
// for an enclosing loop's counter i), so that an evaluator can read it
// when a reduced nest is entered instead of executing the load. It
// returns nil when the path has another form, starts from a value
// computed inside those loops, or crosses memory that a loop which could
// be part of the same nest may store to (a value of the same type).
func (c *exprCtx) memPath(v *ssa.UnOp, depth int) *symbolic.MemPath {
	chain := c.nestable()
	if len(chain) == 0 {
		return nil
	}
	outer := chain[len(chain)-1]
	var loads []loaded
	var build func(x ssa.Value, depth int) (*symbolic.MemPath, bool)
	// build is the path whose end is the value x.
	build = func(x ssa.Value, depth int) (*symbolic.MemPath, bool) {
		if depth > maxExprDepth {
			return nil, false
		}
		if b := blockOf(x); b == nil || !outer.Contains(b) {
			switch x.(type) {
			case *ssa.Const, *ssa.Function, *ssa.Builtin:
				return nil, false
			}
			return &symbolic.MemPath{Base: x}, true
		}
		ld, ok := x.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return nil, false
		}
		loads = append(loads, loadOf(ld))
		switch a := ld.X.(type) {
		case *ssa.FieldAddr:
			p, ok := build(a.X, depth+1)
			if !ok {
				return nil, false
			}
			p.Steps = append(p.Steps, symbolic.MemStep{Field: a.Field})
			return p, true
		case *ssa.IndexAddr:
			ix, err := c.expr(a.Index, depth+1)
			if err != nil {
				return nil, false
			}
			var p *symbolic.MemPath
			if _, isSlice := a.X.Type().Underlying().(*types.Slice); isSlice {
				if p, ok = build(a.X, depth+1); !ok {
					return nil, false
				}
			} else if fa, isField := a.X.(*ssa.FieldAddr); isField {
				// An element of an array field (b.size[2]): the
				// field's array, then its element.
				if p, ok = build(fa.X, depth+1); !ok {
					return nil, false
				}
				p.Steps = append(p.Steps, symbolic.MemStep{Field: fa.Field})
			} else {
				return nil, false
			}
			p.Steps = append(p.Steps, symbolic.MemStep{Field: symbolic.Elem, Index: ix})
			return p, true
		default:
			p, ok := build(a, depth+1)
			if !ok {
				return nil, false
			}
			p.Steps = append(p.Steps, symbolic.MemStep{Field: symbolic.Deref})
			return p, true
		}
	}
	p, ok := build(v, depth)
	if !ok || len(p.Steps) == 0 {
		return nil
	}
	if c.fa.a.storingLoop(chain, loads...) != nil {
		return nil
	}
	return p
}

// nestable is the context's loop and the enclosing loops that a reduced
// nest holding it could extend to: up to the first one with
// communication, a call that is not pure or another effect, which no nest
// contains.
func (c *exprCtx) nestable() []*Loop {
	var out []*Loop
	for l := c.loop; l != nil; l = l.Parent {
		if l != c.loop && (len(l.MPI) > 0 || len(l.Effects) > 0 || !allPure(l.Calls)) {
			break
		}
		out = append(out, l)
	}
	return out
}
