package loopnest

import (
	"go/token"
	"sort"

	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
)

// Shape is what the analysis needs to know of one loop: a stable ID, the
// position of its statement, its header and its blocks. The model's loop
// regions provide exactly this (Region.ID, Region.Pos, Region.Entry,
// Region.Blocks); FindLoops computes it from dominators and back edges when
// there is no model at hand. This is the seam between the two packages.
type Shape struct {
	ID     string
	Pos    token.Pos
	Header *ssa.BasicBlock
	Blocks []*ssa.BasicBlock // header included, in index order
	Region *model.Region     // the model's loop region; nil from FindLoops
}

// ModelLoops returns the shapes of the loop regions of a model function
// (self-loops, while loops and natural loops). Improper regions, the cycles
// that goto makes without a single header, are not loops here: they have no
// induction variables and are never reduced.
func ModelLoops(f *model.Func) []Shape {
	var shapes []Shape
	f.Walk(func(r *model.Region) {
		if r.Kind.IsLoop() {
			shapes = append(shapes, Shape{ID: r.ID(), Pos: r.Pos(), Header: r.Entry, Blocks: r.Blocks, Region: r})
		}
	})
	if shapes == nil {
		shapes = []Shape{} // not nil: nil asks Analyzer.Func to find loops itself
	}
	return shapes
}

// FindLoops returns the natural loops of fn, one per header (back edges to
// the same header are merged), ordered outer before inner and then by
// header index. Cycles without a dominating header (irreducible control
// flow from goto) are not loops here; they are left out.
func FindLoops(fn *ssa.Function) []Shape {
	byHeader := map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			body := byHeader[h]
			if body == nil {
				body = map[*ssa.BasicBlock]bool{h: true}
				byHeader[h] = body
			}
			// Everything that reaches the latch without passing the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if body[x] {
					continue
				}
				body[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	shapes := make([]Shape, 0, len(byHeader))
	for h, body := range byHeader {
		s := Shape{Header: h}
		for b := range body {
			s.Blocks = append(s.Blocks, b)
		}
		sort.Slice(s.Blocks, func(i, j int) bool { return s.Blocks[i].Index < s.Blocks[j].Index })
		shapes = append(shapes, s)
	}
	sort.Slice(shapes, func(i, j int) bool {
		if len(shapes[i].Blocks) != len(shapes[j].Blocks) {
			return len(shapes[i].Blocks) > len(shapes[j].Blocks)
		}
		return shapes[i].Header.Index < shapes[j].Header.Index
	})
	nameShapes(fn, shapes)
	return shapes
}
