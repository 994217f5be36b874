package model

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// node is a vertex of the graph that structural analysis reduces: at first
// one per basic block, later one per collapsed region.
type node struct {
	r     *Region
	succs []*node
	preds []*node
	dead  bool
	mark  int // scratch for traversals, compared against graph.epoch
	idx   int // scratch: index among the members of a region being made
}

func (n *node) block() *ssa.BasicBlock { return n.r.Entry }

// dominates reports whether n dominates m in the reduced graph. Collapsing
// single-entry regions keeps dominance, so the blocks' dominator tree answers.
func (n *node) dominates(m *node) bool { return n.block().Dominates(m.block()) }

func (n *node) hasSucc(m *node) bool { return slices.Contains(n.succs, m) }

// graph is the reduced control-flow graph of one function (or of the part
// reachable from its Recover block).
type graph struct {
	entry *node
	live  int
	epoch int
}

func addUniq(list []*node, n *node) []*node {
	if slices.Contains(list, n) {
		return list
	}
	return append(list, n)
}

// newGraph builds the graph of the blocks reachable from root, one node per
// block, with the Basic regions already made for them.
func newGraph(fn *Func, root *ssa.BasicBlock) *graph {
	nodes := map[*ssa.BasicBlock]*node{}
	var get func(b *ssa.BasicBlock) *node
	get = func(b *ssa.BasicBlock) *node {
		if n, ok := nodes[b]; ok {
			return n
		}
		n := &node{r: fn.leafOf[b.Index]}
		nodes[b] = n
		for _, s := range b.Succs {
			sn := get(s)
			n.succs = addUniq(n.succs, sn)
			sn.preds = addUniq(sn.preds, n)
		}
		return n
	}
	g := &graph{entry: get(root)}
	g.live = len(nodes)
	return g
}

// postorder returns the live nodes in depth-first postorder from the entry,
// successors visited in order, so results are deterministic.
func (g *graph) postorder() []*node {
	g.epoch++
	var order []*node
	type frame struct {
		n *node
		i int
	}
	stack := []frame{{g.entry, 0}}
	g.entry.mark = g.epoch
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.n.succs) {
			s := top.n.succs[top.i]
			top.i++
			if s.mark != g.epoch {
				s.mark = g.epoch
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, top.n)
		stack = stack[:len(stack)-1]
	}
	return order
}

// collapse replaces members (members[0] is the entry) by one node for a new
// region of kind k and returns it. Callers have checked the shape.
func (g *graph) collapse(k Kind, members []*node) *node {
	g.epoch++
	in := g.epoch
	for i, m := range members {
		m.mark, m.idx = in, i
	}
	r := &Region{Kind: k, Entry: members[0].block(), Func: members[0].r.Func}
	nn := &node{r: r}
	for i, m := range members {
		r.Children = append(r.Children, m.r)
		m.r.Parent = r
		for _, s := range m.succs {
			if s.mark == in {
				r.Edges = append(r.Edges, [2]int{i, s.idx})
				continue
			}
			nn.succs = addUniq(nn.succs, s)
			s.preds = replace(s.preds, in, nn)
		}
		for _, p := range m.preds {
			if p.mark == in {
				continue
			}
			nn.preds = addUniq(nn.preds, p)
			p.succs = replace(p.succs, in, nn)
		}
		m.dead = true
	}
	slices.SortFunc(r.Edges, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	if members[0] == g.entry {
		g.entry = nn
	}
	g.live -= len(members) - 1
	return nn
}

// replace substitutes nn for every member (nodes marked in) found in list, keeping the
// position of the first and dropping the rest.
func replace(list []*node, in int, nn *node) []*node {
	out := list[:0]
	added := false
	for _, x := range list {
		if x.mark == in {
			if !added {
				out = append(out, nn)
				added = true
			}
			continue
		}
		if x == nn {
			if added {
				continue
			}
			added = true
		}
		out = append(out, x)
	}
	return out
}
