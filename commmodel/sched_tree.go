package commmodel

// Rooted collectives: linear and binomial trees. Ranks are taken relative
// to the root (v = (r - root) mod P), as MPICH and Open MPI do, so the tree
// is the same for every root.

// lowbit returns the lowest set bit of v, or the smallest power of two >= p
// for v = 0 (the root's "subtree" is everything).
func lowbit(v, p int) int {
	if v == 0 {
		return 1 << ceilLog2(p)
	}
	return v & -v
}

// subtree lists the real ranks of the binomial subtree of relative rank v.
func subtree(v, p, root int) []int {
	hi := min(v+lowbit(v, p), p)
	out := make([]int, 0, hi-v)
	for x := v; x < hi; x++ {
		out = append(out, (x+root)%p)
	}
	return out
}

// binomialBcast: every rank receives from its parent, then sends to its
// children, largest subtree first.
func binomialBcast(b *builder, blocks func(v int) []int) {
	p, root := b.s.P, b.s.Root
	for v := range p {
		r := (v + root) % p
		lb := lowbit(v, p)
		if v != 0 {
			b.recv(r, (v-lb+root)%p, blocks(v), false)
		}
		for m := lb / 2; m >= 1; m /= 2 {
			if v+m < p {
				b.send(r, (v+m+root)%p, blocks(v+m))
			}
		}
	}
}

// binomialReduce: every rank receives from its children, smallest first,
// then sends to its parent. With combine set the data is reduced on the
// way (Reduce); otherwise it is gathered (Gather).
func binomialReduce(b *builder, blocks func(v int) []int, combine bool) {
	p, root := b.s.P, b.s.Root
	for v := range p {
		r := (v + root) % p
		lb := lowbit(v, p)
		for m := 1; m < lb; m *= 2 {
			if v+m < p {
				b.recv(r, (v+m+root)%p, blocks(v+m), combine)
			}
		}
		if v != 0 {
			b.send(r, (v-lb+root)%p, blocks(v))
		}
	}
}

func linearBcast(b *builder, all []int) {
	p, root := b.s.P, b.s.Root
	var sends []Transfer
	for i := 1; i < p; i++ {
		sends = append(sends, Transfer{Peer: (root + i) % p, Blocks: all})
		b.recv((root+i)%p, root, all, false)
	}
	if len(sends) > 0 {
		b.step(root, false, sends, nil)
	}
}

func linearToRoot(b *builder, blocks func(r int) []int, combine bool) {
	p, root := b.s.P, b.s.Root
	var recvs []Transfer
	for i := 1; i < p; i++ {
		r := (root + i) % p
		recvs = append(recvs, Transfer{Peer: r, Blocks: blocks(r)})
		b.send(r, root, blocks(r))
	}
	if len(recvs) > 0 {
		b.step(root, combine, nil, recvs)
	}
}

func linearFromRoot(b *builder, blocks func(r int) []int) {
	p, root := b.s.P, b.s.Root
	var sends []Transfer
	for i := 1; i < p; i++ {
		r := (root + i) % p
		sends = append(sends, Transfer{Peer: r, Blocks: blocks(r)})
		b.recv(r, root, blocks(r), false)
	}
	if len(sends) > 0 {
		b.step(root, false, sends, nil)
	}
}

// linearFromRootInTurn: the root sends each rank its blocks with a
// blocking send, in rank order after itself, as Open MPI's basic linear
// scatter and the goroutine backend's Scatter do: a block leaves once the
// one before it is out (eager) or received (rendezvous), so the last rank
// waits for all the copies before its own.
func linearFromRootInTurn(b *builder, blocks func(r int) []int) {
	p, root := b.s.P, b.s.Root
	for i := 1; i < p; i++ {
		r := (root + i) % p
		b.send(root, r, blocks(r))
		b.recv(r, root, blocks(r), false)
	}
}
