package model

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// SanityError lists the invariant violations found in one function's trees.
type SanityError struct {
	Func     string
	Problems []string
}

func (e *SanityError) Error() string {
	msg := fmt.Sprintf("model: sanity check of %s: %s", e.Func, e.Problems[0])
	if len(e.Problems) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(e.Problems)-1)
	}
	return msg
}

// Check verifies f's control trees: every block is in exactly one Basic
// region and its segments cover it; children and blocks agree; every region
// is entered only at its entry, which dominates it (improper regions aside);
// each region's recorded edges are exactly the CFG edges between its
// children; and each region has the shape its kind says. It returns a
// *SanityError, or nil.
func (f *Func) Check() error {
	f.named()
	c := &checker{f: f}
	c.run()
	if len(c.problems) == 0 {
		return nil
	}
	return &SanityError{Func: f.SSA.String(), Problems: c.problems}
}

type checker struct {
	f        *Func
	problems []string
}

func (c *checker) errorf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) run() {
	f := c.f
	count := make([]int, len(f.SSA.Blocks))
	ids := 0
	f.Walk(func(r *Region) {
		ids += 1 + len(r.Leaves)
		if r.Kind == Basic {
			count[r.Entry.Index]++
			if f.leafOf[r.Entry.Index] != r {
				c.errorf("%s: not the Basic region recorded for block %d", r.ID(), r.Entry.Index)
			}
			c.leaves(r)
			return
		}
		c.region(r)
	})
	for i, n := range count {
		if n != 1 {
			c.errorf("block %d is in %d Basic regions", i, n)
		}
	}
	if ids != len(f.byID) {
		c.errorf("%d regions and leaves but %d distinct IDs", ids, len(f.byID))
	}
	for _, u := range f.SSA.Blocks {
		for _, v := range u.Succs {
			c.edge(u, v)
		}
	}
}

func (c *checker) leaves(r *Region) {
	at := 0
	for _, l := range r.Leaves {
		if l.Start != at || l.End <= l.Start || l.Block != r.Entry {
			c.errorf("%s: segment %s covers [%d,%d), want start %d", r.ID(), l.ID(), l.Start, l.End, at)
		}
		if l.Kind != Compute {
			if _, ok := l.Block.Instrs[l.Start].(ssa.CallInstruction); !ok || l.End != l.Start+1 {
				c.errorf("%s: call segment %s is not one call", r.ID(), l.ID())
			}
		}
		at = l.End
	}
	if at != len(r.Entry.Instrs) {
		c.errorf("%s: segments cover %d of %d instructions", r.ID(), at, len(r.Entry.Instrs))
	}
}

func (c *checker) region(r *Region) {
	if len(r.Children) == 0 {
		c.errorf("%s: %s region without children", r.ID(), r.Kind)
		return
	}
	if r.Children[0].Entry != r.Entry {
		c.errorf("%s: entry is not the first child's entry", r.ID())
	}
	var blocks []*ssa.BasicBlock
	for _, ch := range r.Children {
		if ch.Parent != r {
			c.errorf("%s: child %s has another parent", r.ID(), ch.ID())
		}
		blocks = append(blocks, ch.Blocks...)
	}
	if !slices.Equal(blocks, r.Blocks) {
		c.errorf("%s: blocks differ from its children's blocks in order", r.ID())
	}
	if r.Kind != Improper {
		for _, b := range r.Blocks {
			if !r.Entry.Dominates(b) {
				c.errorf("%s: entry block %d does not dominate block %d", r.ID(), r.Entry.Index, b.Index)
			}
		}
	}
	if got := childEdges(r); !slices.Equal(got, r.Edges) {
		c.errorf("%s: recorded child edges %v, CFG gives %v", r.ID(), r.Edges, got)
	}
	if msg := shapeProblem(r); msg != "" {
		c.errorf("%s: %s region: %s", r.ID(), r.Kind, msg)
	}
}

// edge checks that the CFG edge u->v enters every region it enters at
// that region's entry.
func (c *checker) edge(u, v *ssa.BasicBlock) {
	lu, lv := c.f.leafOf[u.Index], c.f.leafOf[v.Index]
	anc := map[*Region]bool{}
	for x := lu; x != nil; x = x.Parent {
		anc[x] = true
	}
	for x := lv; x != nil && !anc[x]; x = x.Parent {
		if x.Entry != v {
			c.errorf("%s: edge %d->%d enters it at a block other than its entry", x.ID(), u.Index, v.Index)
		}
	}
}

// shapeProblem says how r's child graph differs from what its kind
// requires, or returns "".
func shapeProblem(r *Region) string {
	n := len(r.Children)
	is := func(want ...[2]int) bool { return slices.Equal(r.Edges, want) }
	switch r.Kind {
	case Block:
		want := make([][2]int, 0, n)
		for i := 0; i+1 < n; i++ {
			want = append(want, [2]int{i, i + 1})
		}
		if n < 2 || !is(want...) {
			return "children are not a chain"
		}
	case IfThen:
		if n != 2 || !is([2]int{0, 1}) {
			return "not a test and one arm"
		}
	case IfThenElse:
		if n != 3 || !is([2]int{0, 1}, [2]int{0, 2}) {
			return "not a test and two arms"
		}
	case Case, Proper:
		if n < 2 || hasCycle(r, false) || !allReached(r) {
			return "child graph is not an acyclic graph reached from the entry"
		}
	case SelfLoop:
		if n != 1 || !is([2]int{0, 0}) {
			return "not one child with an edge to itself"
		}
	case WhileLoop:
		if n != 2 || !is([2]int{0, 1}, [2]int{1, 0}) {
			return "not a header and a body going back to it"
		}
	case NaturalLoop:
		back := false
		for _, e := range r.Edges {
			back = back || e[1] == 0
		}
		if !back || hasCycle(r, true) || !allReached(r) {
			return "not a loop whose only cycles pass its header"
		}
	case Improper:
		if !hasCycle(r, false) || !allReached(r) {
			return "no cycle, or children not reached from the entry"
		}
	}
	return ""
}

// hasCycle reports whether the child graph has a cycle, ignoring edges into
// child 0 when skipEntry is set.
func hasCycle(r *Region, skipEntry bool) bool {
	n := len(r.Children)
	indeg := make([]int, n)
	for _, e := range r.Edges {
		if !(skipEntry && e[1] == 0) {
			indeg[e[1]]++
		}
	}
	var queue []int
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	done := 0
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		done++
		for _, e := range r.Edges {
			if e[0] == x && !(skipEntry && e[1] == 0) {
				if indeg[e[1]]--; indeg[e[1]] == 0 {
					queue = append(queue, e[1])
				}
			}
		}
	}
	return done < n
}

func allReached(r *Region) bool {
	seen := make([]bool, len(r.Children))
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range r.Edges {
			if e[0] == x && !seen[e[1]] {
				seen[e[1]] = true
				stack = append(stack, e[1])
			}
		}
	}
	return !slices.Contains(seen, false)
}

// childEdges derives r's child edges from the CFG. An edge u->v belongs to
// the lowest region holding both blocks, except that an edge to the entry of
// a region that is not a loop belongs to an enclosing region: only loops
// (and improper regions) hold edges back to their own entry.
func childEdges(r *Region) [][2]int {
	f := r.Func
	var out [][2]int
	for _, u := range r.Blocks {
		for _, v := range u.Succs {
			if owner(f, u, v) != r {
				continue
			}
			e := [2]int{childIndex(r, u), childIndex(r, v)}
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return out
}

func owner(f *Func, u, v *ssa.BasicBlock) *Region {
	x := lca(f.leafOf[u.Index], f.leafOf[v.Index])
	for x != nil && x.Entry == v && !x.Kind.cyclic() {
		x = x.Parent
	}
	return x
}

// lca returns the lowest region holding both a and b.
func lca(a, b *Region) *Region {
	da, db := depth(a), depth(b)
	for ; da > db; da-- {
		a = a.Parent
	}
	for ; db > da; db-- {
		b = b.Parent
	}
	for a != b {
		a, b = a.Parent, b.Parent
	}
	return a
}

func depth(r *Region) int {
	d := 0
	for ; r.Parent != nil; r = r.Parent {
		d++
	}
	return d
}

func childIndex(r *Region, b *ssa.BasicBlock) int {
	x := r.Func.leafOf[b.Index]
	for x != nil && x.Parent != r {
		x = x.Parent
	}
	if x == nil {
		return -1
	}
	return slices.Index(r.Children, x)
}
