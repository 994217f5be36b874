package commmodel

import "fmt"

// All-to-all blocks are numbered src*P + dst.

func pairwiseAlltoall(b *builder) {
	p := b.s.P
	for k := 1; k < p; k++ {
		for r := range p {
			to, from := (r+k)%p, (r-k+p)%p
			b.exchange2(r, to, []int{r*p + to}, from, []int{from*p + r}, false)
		}
	}
}

// linearAlltoall posts every receive and send at once, each rank starting
// with its right neighbour so that no two ranks send to the same peer at
// the same position (Open MPI's basic linear).
func linearAlltoall(b *builder) {
	p := b.s.P
	for r := range p {
		var sends, recvs []Transfer
		for k := 1; k < p; k++ {
			to, from := (r+k)%p, (r-k+p)%p
			sends = append(sends, Transfer{Peer: to, Blocks: []int{r*p + to}})
			recvs = append(recvs, Transfer{Peer: from, Blocks: []int{from*p + r}})
		}
		if p > 1 {
			b.step(r, false, sends, recvs)
		}
	}
}

// bruckAlltoall: at step k (a power of two) every block whose remaining
// distance (dst - holder) mod P has bit k set moves k ranks up. Tracking
// holders block by block gives exactly the blocks of Bruck's packing.
func bruckAlltoall(b *builder) {
	p := b.s.P
	holder := make([]int, p*p)
	for blk := range holder {
		holder[blk] = blk / p
	}
	for k := 1; k < p; k *= 2 {
		out := make([][]int, p)
		for blk, h := range holder {
			dst := blk % p
			if ((dst-blk/p+p)%p)&k != 0 {
				out[h] = append(out[h], blk)
			}
		}
		for r := range p {
			from := (r - k + p) % p
			b.exchange2(r, (r+k)%p, out[r], from, out[from], false)
		}
		for r := range p {
			for _, blk := range out[r] {
				holder[blk] = (r + k) % p
			}
		}
	}
}

// leaderAlltoall is the node-aware all-to-all of Li et al. (SEEDS.md 5)
// with d leaders per node: every rank sends its blocks to its group's
// leader; leader i of each node exchanges with leader i of every other node
// (pairwise) the blocks its group sends there; then every leader delivers
// what it holds to the ranks of its node.
func leaderAlltoall(b *builder, pl *Placement, d int) error {
	p := b.s.P
	if pl == nil || pl.P != p {
		return fmt.Errorf("%w: leaders needs a placement of %d ranks", ErrUnsupported, p)
	}
	nodes := pl.NodeRanks()
	m := len(nodes[0])
	for _, rs := range nodes {
		if len(rs) != m {
			return fmt.Errorf("%w: leaders needs the same number of ranks on every node", ErrUnsupported)
		}
	}
	if d < 1 || m%d != 0 {
		return fmt.Errorf("%w: %d leaders do not divide %d ranks per node", ErrUnsupported, d, m)
	}
	g := m / d
	leader := func(node, i int) int { return nodes[node][i*g] }
	held := make(map[int][]int) // leader rank -> blocks held
	// Phase 1: members to their leader.
	for n, rs := range nodes {
		for j, r := range rs {
			l := leader(n, j/g)
			own := seq(r*p, r*p+p)
			if r == l {
				held[l] = append(held[l], own...)
				continue
			}
			b.send(r, l, own)
			b.recv(l, r, own, false)
			held[l] = append(held[l], own...)
		}
	}
	// Phase 2: leaders of the same index exchange pairwise across nodes.
	nn := len(nodes)
	forNode := func(blocks []int, node int) []int {
		var out []int
		for _, blk := range blocks {
			if pl.Node[blk%p] == node {
				out = append(out, blk)
			}
		}
		return out
	}
	next := make(map[int][]int)
	for n := range nn {
		for i := range d {
			l := leader(n, i)
			next[l] = append(next[l], forNode(held[l], n)...)
		}
	}
	for k := 1; k < nn; k++ {
		for n := range nn {
			to, from := (n+k)%nn, (n-k+nn)%nn
			for i := range d {
				l := leader(n, i)
				in := forNode(held[leader(from, i)], n)
				b.exchange2(l, leader(to, i), forNode(held[l], to), leader(from, i), in, false)
				next[l] = append(next[l], in...)
			}
		}
	}
	// Phase 3: leaders deliver to the ranks of their node.
	for n, rs := range nodes {
		for i := range d {
			l := leader(n, i)
			for _, r := range rs {
				if r == l {
					continue
				}
				var out []int
				for _, blk := range next[l] {
					if blk%p == r {
						out = append(out, blk)
					}
				}
				b.send(l, r, out)
				b.recv(r, l, out, false)
			}
		}
	}
	return nil
}
