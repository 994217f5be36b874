package commmodel

// Allgather-style exchanges over P ranks where rank r starts with block
// set own(r); used by Allgather itself and by the second phase of the
// scatter-allgather broadcast and Rabenseifner's algorithm.

// recursiveDoublingAllgather needs P a power of two: at step k rank r
// exchanges everything it has with r xor 2^k.
func recursiveDoublingAllgather(b *builder, own func(r int) []int) {
	p := b.s.P
	have := make([][]int, p)
	for r := range p {
		have[r] = append([]int(nil), own(r)...)
	}
	for m := 1; m < p; m *= 2 {
		next := make([][]int, p)
		for r := range p {
			q := r ^ m
			b.exchange(r, q, have[r], have[q], false)
			next[r] = append(append([]int(nil), have[r]...), have[q]...)
		}
		have = next
	}
}

// ringAllgather: P-1 steps; at step k rank r passes on to r+1 the block
// set it received at step k-1 (its own at step 0).
func ringAllgather(b *builder, own func(r int) []int) {
	p := b.s.P
	for k := 0; k < p-1; k++ {
		for r := range p {
			b.exchange2(r, (r+1)%p, own((r-k+p)%p), (r-1+p)%p, own((r-k-1+2*p)%p), false)
		}
	}
}

// bruckAllgather: ceil(log2 P) steps; at step k rank r sends the first
// min(2^k, P-2^k) blocks it holds (its own and the next ones up) to r-2^k
// and receives as many from r+2^k.
func bruckAllgather(b *builder) {
	p := b.s.P
	for k := 1; k < p; k *= 2 {
		n := min(k, p-k)
		for r := range p {
			out := make([]int, n)
			in := make([]int, n)
			for i := range n {
				out[i] = (r + i) % p
				in[i] = (r + k + i) % p
			}
			b.exchange2(r, (r-k+p)%p, out, (r+k)%p, in, false)
		}
	}
}

// exchange2 sends out to dst and receives in from src in one step.
func (b *builder) exchange2(r, dst int, out []int, src int, in []int, combine bool) {
	b.step(r, combine, []Transfer{{Peer: dst, Blocks: out}}, []Transfer{{Peer: src, Blocks: in}})
}
