package commmodel

// Reductions over any P. Recursive doubling and Rabenseifner's algorithm
// work on a power of two ranks; as in MPICH, the first 2*rem ranks
// (rem = P - pof2) pair up first: even ranks hand their data to the next
// odd rank and sit out, and get the result back at the end.

// folding describes the reduction of P ranks to pof2 participants.
type folding struct {
	p, pof2, rem int
}

func newFolding(p int) folding {
	q := pof2floor(p)
	return folding{p, q, p - q}
}

// newRank is r's rank among the participants, or -1 if r sits out.
func (f folding) newRank(r int) int {
	switch {
	case r < 2*f.rem && r%2 == 0:
		return -1
	case r < 2*f.rem:
		return r / 2
	default:
		return r - f.rem
	}
}

// real maps a participant back to its rank.
func (f folding) real(nr int) int {
	if nr < f.rem {
		return 2*nr + 1
	}
	return nr + f.rem
}

// fold: even ranks below 2*rem send all blocks to r+1, which combines.
func (f folding) fold(b *builder, all []int) {
	for r := 0; r < 2*f.rem; r += 2 {
		b.send(r, r+1, all)
		b.recv(r+1, r, all, true)
	}
}

// unfold returns the result to the ranks that sat out.
func (f folding) unfold(b *builder, all []int) {
	for r := 0; r < 2*f.rem; r += 2 {
		b.send(r+1, r, all)
		b.recv(r, r+1, all, false)
	}
}

func recursiveDoublingAllreduce(b *builder) {
	all := seq(0, len(b.s.Blocks))
	f := newFolding(b.s.P)
	f.fold(b, all)
	for r := range b.s.P {
		nr := f.newRank(r)
		if nr < 0 {
			continue
		}
		for m := 1; m < f.pof2; m *= 2 {
			q := f.real(nr ^ m)
			b.exchange(r, q, all, all, true)
		}
	}
	f.unfold(b, all)
}

// reduceScatterHalving: recursive halving among the participants; at the
// end participant nr holds chunk nr (of pof2 chunks) fully reduced.
func reduceScatterHalving(b *builder, f folding) {
	for r := range b.s.P {
		nr := f.newRank(r)
		if nr < 0 {
			continue
		}
		lo, hi := 0, f.pof2
		for m := f.pof2 / 2; m >= 1; m /= 2 {
			q := f.real(nr ^ m)
			mid := (lo + hi) / 2
			if nr&m == 0 {
				b.exchange(r, q, seq(mid, hi), seq(lo, mid), true)
				hi = mid
			} else {
				b.exchange(r, q, seq(lo, mid), seq(mid, hi), true)
				lo = mid
			}
		}
	}
}

func rabenseifnerAllreduce(b *builder) {
	f := newFolding(b.s.P)
	all := seq(0, f.pof2)
	f.fold(b, all)
	reduceScatterHalving(b, f)
	for r := range b.s.P {
		nr := f.newRank(r)
		if nr < 0 {
			continue
		}
		lo, hi := nr, nr+1
		for m := 1; m < f.pof2; m *= 2 {
			q := f.real(nr ^ m)
			qlo := lo ^ m // the partner's range mirrors ours
			if nr&m == 0 {
				b.exchange(r, q, seq(lo, hi), seq(qlo, qlo+(hi-lo)), false)
				hi += hi - lo
			} else {
				b.exchange(r, q, seq(lo, hi), seq(qlo, qlo+(hi-lo)), false)
				lo = qlo
			}
		}
	}
	f.unfold(b, all)
}

func rabenseifnerReduce(b *builder) {
	f := newFolding(b.s.P)
	all := seq(0, f.pof2)
	f.fold(b, all)
	reduceScatterHalving(b, f)
	// Binomial gather of the chunks to participant 0.
	for r := range b.s.P {
		nr := f.newRank(r)
		if nr < 0 {
			continue
		}
		lb := lowbit(nr, f.pof2)
		for m := 1; m < lb; m *= 2 {
			if nr+m < f.pof2 {
				b.recv(r, f.real(nr+m), seq(nr+m, nr+m+min(lowbit(nr+m, f.pof2), f.pof2-nr-m)), false)
			}
		}
		if nr != 0 {
			b.send(r, f.real(nr-lb), seq(nr, nr+min(lb, f.pof2-nr)))
		}
	}
	if first := f.real(0); first != b.s.Root {
		b.send(first, b.s.Root, all)
		b.recv(b.s.Root, first, all, false)
	}
}

// ringAllreduce: a ring reduce-scatter of P chunks, then a ring allgather.
func ringAllreduce(b *builder) {
	p := b.s.P
	for k := 0; k < p-1; k++ {
		for r := range p {
			b.exchange2(r, (r+1)%p, []int{(r - k + p) % p}, (r-1+p)%p, []int{(r - k - 1 + 2*p) % p}, true)
		}
	}
	// Rank r now holds chunk r+1 reduced.
	for k := 0; k < p-1; k++ {
		for r := range p {
			b.exchange2(r, (r+1)%p, []int{(r + 1 - k + p) % p}, (r-1+p)%p, []int{(r - k + p) % p}, false)
		}
	}
}
