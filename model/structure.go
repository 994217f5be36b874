package model

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// reduce runs structural analysis on g until one node is left and returns
// the root region. Each round tries, in order: the simple acyclic shapes at
// every node (in postorder, so inner code first), proper regions with a
// single exit, innermost loops, improper regions, and as a last resort a
// proper region of everything a node dominates; the last step always
// succeeds, so reduction terminates on any graph.
func (g *graph) reduce() (*Region, error) {
	for g.live > 1 {
		switch {
		case g.pass(g.acyclicAt):
		case g.pass(g.properAt):
		case g.pass(g.loopAt):
		case g.improper():
		case g.pass(g.looseProperAt):
		default:
			return nil, fmt.Errorf("no reduction possible with %d nodes left", g.live)
		}
	}
	return g.entry.r, nil
}

// pass applies try at every live node in postorder, repeating at the new
// node after each success, and reports whether anything changed.
func (g *graph) pass(try func(*node) *node) bool {
	changed := false
	for _, n := range g.postorder() {
		for !n.dead {
			m := try(n)
			if m == nil {
				break
			}
			n, changed = m, true
		}
	}
	return changed
}

// acyclicAt reduces a block, if-then, if-then-else or case region at n.
func (g *graph) acyclicAt(n *node) *node {
	if isHeader(n) {
		// A loop header heads its loop; an acyclic region at it would pull
		// the loop's exit code in (and stop the loop from being found).
		return nil
	}
	if m := g.blockAt(n); m != nil {
		return m
	}
	switch len(n.succs) {
	case 0, 1:
		return nil
	case 2:
		a, b := n.succs[0], n.succs[1]
		if g.arm(n, a) && g.arm(n, b) {
			if join(a, b) {
				return g.collapse(IfThenElse, []*node{n, a, b})
			}
		}
		for _, p := range [][2]*node{{a, b}, {b, a}} {
			then, rest := p[0], p[1]
			if g.arm(n, then) && (len(then.succs) == 0 || len(then.succs) == 1 && then.succs[0] == rest) {
				return g.collapse(IfThen, []*node{n, then})
			}
		}
		return nil
	default:
		return g.caseAt(n)
	}
}

// isHeader reports whether n is the target of a back edge: some
// predecessor is n itself or dominated by it.
func isHeader(n *node) bool {
	for _, p := range n.preds {
		if n.dominates(p) {
			return true
		}
	}
	return false
}

// arm reports whether a can be a branch arm of n: entered only from n, not
// looping and not going back to n.
func (g *graph) arm(n, a *node) bool {
	return a != n && a != g.entry && len(a.preds) == 1 && a.preds[0] == n &&
		!a.hasSucc(a) && !a.hasSucc(n) && len(a.succs) <= 1
}

// join reports whether arms a and b meet at the same successor (or end).
func join(a, b *node) bool {
	if len(a.succs) == 0 || len(b.succs) == 0 {
		return true
	}
	return a.succs[0] == b.succs[0]
}

// blockAt reduces the longest chain through n of nodes with one successor
// and one predecessor.
func (g *graph) blockAt(n *node) *node {
	chain := []*node{n}
	for cur := n; len(cur.succs) == 1; {
		s := cur.succs[0]
		if s == g.entry || len(s.preds) != 1 || s.hasSucc(s) || slices.Contains(chain, s) {
			break
		}
		chain = append(chain, s)
		cur = s
	}
	for head := n; len(head.preds) == 1 && head != g.entry; {
		p := head.preds[0]
		if len(p.succs) != 1 || isHeader(p) || slices.Contains(chain, p) {
			break
		}
		chain = slices.Insert(chain, 0, p)
		head = p
	}
	for len(chain) > 1 && chain[len(chain)-1].hasSucc(chain[0]) {
		// The chain closes a cycle: leave the back edge to loop detection.
		chain = chain[1:]
	}
	if len(chain) < 2 {
		return nil
	}
	return g.collapse(Block, chain)
}

// caseAt reduces a multi-way branch at n whose arms all meet at one join
// node (which may also be a direct successor of n).
func (g *graph) caseAt(n *node) *node {
	var arms []*node
	var joinNode *node
	for _, s := range n.succs {
		if g.arm(n, s) {
			arms = append(arms, s)
			continue
		}
		if joinNode != nil || s == n {
			return nil
		}
		joinNode = s
	}
	for _, a := range arms {
		if len(a.succs) == 0 {
			continue
		}
		if joinNode == nil {
			joinNode = a.succs[0]
		}
		if a.succs[0] != joinNode {
			return nil
		}
	}
	if len(arms) < 2 {
		return nil
	}
	return g.collapse(Case, append([]*node{n}, arms...))
}

// loopAt reduces the loop headed by n if its body holds no unreduced loop.
func (g *graph) loopAt(n *node) *node {
	var latches []*node
	for _, p := range n.preds {
		if p != n && n.dominates(p) {
			latches = append(latches, p)
		}
	}
	if len(latches) == 0 {
		if n.hasSucc(n) {
			return g.collapse(SelfLoop, []*node{n})
		}
		return nil
	}
	body := g.naturalLoop(n, latches)
	if !acyclicWithout(body, n) {
		return nil
	}
	if len(body) == 2 && !n.hasSucc(n) {
		m := body[1]
		if len(n.succs) == 2 && len(m.succs) == 1 && len(m.preds) == 1 {
			return g.collapse(WhileLoop, body)
		}
	}
	return g.collapse(NaturalLoop, body)
}

// naturalLoop returns the header followed by the nodes that reach a latch
// without passing the header, in reverse postorder of a walk from n.
func (g *graph) naturalLoop(n *node, latches []*node) []*node {
	g.epoch++
	n.mark = g.epoch
	in := map[*node]bool{n: true}
	stack := slices.Clone(latches)
	for _, l := range latches {
		l.mark = g.epoch
		in[l] = true
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range x.preds {
			if p.mark != g.epoch {
				p.mark = g.epoch
				in[p] = true
				stack = append(stack, p)
			}
		}
	}
	return orderFrom(n, in)
}

// orderFrom lists the nodes of set reachable from n inside it, n first, in
// reverse postorder.
func orderFrom(n *node, set map[*node]bool) []*node {
	seen := map[*node]bool{n: true}
	var post []*node
	var visit func(x *node)
	visit = func(x *node) {
		for _, s := range x.succs {
			if set[s] && !seen[s] {
				seen[s] = true
				visit(s)
			}
		}
		post = append(post, x)
	}
	visit(n)
	slices.Reverse(post)
	return post
}

// acyclicWithout reports whether the nodes other than h have no cycle among
// themselves (so the only cycles go through h).
func acyclicWithout(nodes []*node, h *node) bool {
	set := map[*node]bool{}
	for _, x := range nodes {
		if x != h {
			set[x] = true
		}
	}
	return isAcyclic(set)
}

func isAcyclic(set map[*node]bool) bool {
	const (
		white = iota
		grey
		black
	)
	color := map[*node]int{}
	var visit func(x *node) bool
	visit = func(x *node) bool {
		color[x] = grey
		for _, s := range x.succs {
			if !set[s] {
				continue
			}
			switch color[s] {
			case grey:
				return false
			case white:
				if !visit(s) {
					return false
				}
			}
		}
		color[x] = black
		return true
	}
	for x := range set {
		if color[x] == white && !visit(x) {
			return false
		}
	}
	return true
}

// dominated returns n followed by the live nodes n dominates, found by a
// walk from n (every node n dominates is reachable through such nodes).
func (g *graph) dominated(n *node) map[*node]bool {
	set := map[*node]bool{n: true}
	stack := []*node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.succs {
			if !set[s] && n.dominates(s) {
				set[s] = true
				stack = append(stack, s)
			}
		}
	}
	return set
}

// properAt reduces the acyclic region from n to its immediate postdominator
// within the nodes n dominates (returns ending a path do not count as exits),
// when that region has two or more nodes and exits only to one node.
func (g *graph) properAt(n *node) *node {
	return g.properRegion(n, false)
}

// looseProperAt reduces all that n dominates when it is acyclic, whatever
// its exits.
func (g *graph) looseProperAt(n *node) *node {
	return g.properRegion(n, true)
}

func (g *graph) properRegion(n *node, loose bool) *node {
	if len(n.succs) < 2 && !loose {
		return nil
	}
	dom := g.dominated(n)
	if len(dom) < 2 || !isAcyclic(dom) {
		return nil
	}
	for x := range dom {
		if x.hasSucc(n) {
			return nil
		}
	}
	region := dom
	if !loose {
		p, ok := ipostdom(n, dom)
		if !ok {
			return nil
		}
		if p != nil {
			region = reachAvoiding(n, p, dom)
		}
		exits := map[*node]bool{}
		for x := range region {
			for _, s := range x.succs {
				if !region[s] {
					exits[s] = true
				}
			}
		}
		if len(exits) > 1 || len(region) < 2 {
			return nil
		}
	}
	return g.collapse(Proper, orderFrom(n, region))
}

// ipostdom finds n's immediate postdominator inside the acyclic set dom,
// where all edges leaving dom go to one virtual exit and paths that end
// (returns, panics) constrain nothing. It returns (nil, true) when the
// virtual exit is the postdominator and the edges leave dom to one node
// only, and ok=false when no single join exists.
func ipostdom(n *node, dom map[*node]bool) (p *node, ok bool) {
	order := orderFrom(n, dom) // topological: dom is acyclic
	const top = -1
	exit := len(order)
	idx := make(map[*node]int, len(order))
	for i, x := range order {
		idx[x] = i
	}
	ipd := make([]int, len(order)+1)
	depth := make([]int, len(order)+1)
	ipd[exit], depth[exit] = exit, 0
	intersect := func(a, b int) int {
		for a != b {
			for depth[a] > depth[b] {
				a = ipd[a]
			}
			for depth[b] > depth[a] {
				b = ipd[b]
			}
			if a != b {
				a, b = ipd[a], ipd[b]
			}
		}
		return a
	}
	targets := map[*node]bool{}
	for i := len(order) - 1; i >= 0; i-- {
		cur := top
		for _, s := range order[i].succs {
			j, in := idx[s]
			if !in {
				targets[s] = true
				j = exit
			}
			if cur == top {
				cur = j
			} else {
				cur = intersect(cur, j)
			}
		}
		ipd[i] = cur
		if cur == top {
			// Every path from here ends: it is postdominated by anything.
			ipd[i], depth[i] = exit, 1
			continue
		}
		depth[i] = depth[cur] + 1
	}
	switch d := ipd[0]; {
	case d == exit:
		return nil, len(targets) <= 1
	default:
		return order[d], true
	}
}

// reachAvoiding returns the nodes of set reachable from n without passing p.
func reachAvoiding(n, p *node, set map[*node]bool) map[*node]bool {
	out := map[*node]bool{n: true}
	stack := []*node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.succs {
			if s != p && set[s] && !out[s] {
				out[s] = true
				stack = append(stack, s)
			}
		}
	}
	return out
}

// improper reduces one multi-entry cycle: the smallest strongly connected
// set without a dominating header, widened to its entries' nearest common
// dominator and the nodes on paths from it into the cycle.
func (g *graph) improper() bool {
	all := map[*node]bool{}
	for _, x := range g.postorder() {
		all[x] = true
	}
	scc := g.irreducible(all)
	if scc == nil {
		return false
	}
	var d *ssa.BasicBlock
	for x := range scc {
		entry := x == g.entry
		for _, p := range x.preds {
			if !scc[p] {
				entry = true
			}
		}
		if entry {
			d = nca(d, x.block())
		}
	}
	dn := g.nodeOf(d)
	dom := g.dominated(dn)
	fwd := reachAvoiding(dn, nil, dom)
	bwd := map[*node]bool{}
	stack := []*node{}
	for x := range scc {
		bwd[x] = true
		stack = append(stack, x)
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range x.preds {
			if dom[p] && !bwd[p] {
				bwd[p] = true
				stack = append(stack, p)
			}
		}
	}
	region := map[*node]bool{dn: true}
	for x := range fwd {
		if bwd[x] {
			region[x] = true
		}
	}
	g.collapse(Improper, orderFrom(dn, region))
	return true
}

// irreducible returns a strongly connected set of nodes in set that has no
// node dominating the rest, looking inside loops with a header.
func (g *graph) irreducible(set map[*node]bool) map[*node]bool {
	for _, scc := range sccs(set) {
		if len(scc) < 2 {
			continue
		}
		var header *node
		for x := range scc {
			all := true
			for y := range scc {
				if !x.dominates(y) {
					all = false
					break
				}
			}
			if all {
				header = x
				break
			}
		}
		if header == nil {
			return scc
		}
		delete(scc, header)
		if inner := g.irreducible(scc); inner != nil {
			return inner
		}
	}
	return nil
}

// sccs returns the strongly connected components of the subgraph on set
// (Tarjan), in a deterministic order for a given graph.
func sccs(set map[*node]bool) []map[*node]bool {
	index := map[*node]int{}
	low := map[*node]int{}
	onStack := map[*node]bool{}
	var stack []*node
	var out []map[*node]bool
	next := 0
	var strong func(v *node)
	strong = func(v *node) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range v.succs {
			if !set[w] {
				continue
			}
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			comp := map[*node]bool{}
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = true
				if w == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	roots := make([]*node, 0, len(set))
	for x := range set {
		roots = append(roots, x)
	}
	slices.SortFunc(roots, func(a, b *node) int { return a.block().Index - b.block().Index })
	for _, x := range roots {
		if _, seen := index[x]; !seen {
			strong(x)
		}
	}
	return out
}

// nca returns the nearest common ancestor of a and b in the dominator tree
// (a may be nil).
func nca(a, b *ssa.BasicBlock) *ssa.BasicBlock {
	if a == nil {
		return b
	}
	for x := a; x != nil; x = x.Idom() {
		if x.Dominates(b) {
			return x
		}
	}
	return a // different roots (entry and Recover) cannot share a cycle
}

// nodeOf returns the live node whose region holds block b.
func (g *graph) nodeOf(b *ssa.BasicBlock) *node {
	r := g.entry.r.Func.leafOf[b.Index]
	for r.Parent != nil {
		r = r.Parent
	}
	for _, x := range g.postorder() {
		if x.r == r {
			return x
		}
	}
	return g.entry
}
