package commmodel

// Barrier blocks are zero-byte tokens, one per rank: a rank may leave the
// barrier once it has (transitively) heard from every rank.

func disseminationBarrier(b *builder) {
	p := b.s.P
	// After the rounds of distance below k, rank r has heard from the k
	// ranks r-k+1 .. r (cyclically): a window of that length ending at r+p
	// in 0..p-1 twice over, shared by every list that names it. A union
	// per rank and round (sorted sets) made the schedule O(P^2): 268 MB at
	// P = 4096, 4.3 GB at 16384.
	twice := make([]int, 2*p)
	for i := range twice {
		twice[i] = i % p
	}
	heard := func(r, k int) []int { return twice[r+p-k+1 : r+p+1 : r+p+1] }
	for k := 1; k < p; k *= 2 {
		for r := range p {
			from := (r - k + p) % p
			b.exchange2(r, (r+k)%p, heard(r, k), from, heard(from, k), false)
		}
	}
}

// linearBarrier: everyone reports to rank 0, which then releases everyone.
func linearBarrier(b *builder) {
	p := b.s.P
	all := seq(0, p)
	linearToRoot(b, func(r int) []int { return []int{r} }, false)
	linearFromRoot(b, func(int) []int { return all })
}

// recursiveDoublingBarrier folds the extra ranks in as the reductions do.
func recursiveDoublingBarrier(b *builder) {
	p := b.s.P
	f := newFolding(p)
	have := make([][]int, p)
	for r := range p {
		have[r] = []int{r}
	}
	for r := 0; r < 2*f.rem; r += 2 {
		b.send(r, r+1, have[r])
		b.recv(r+1, r, have[r], false)
		have[r+1] = union(have[r+1], have[r])
	}
	for m := 1; m < f.pof2; m *= 2 {
		next := make([][]int, p)
		copy(next, have)
		// After this step every participant of an aligned group of 2m
		// (by new rank) has heard from the same ranks: the group shares
		// one union (block lists are never modified). One union per pair
		// made the P = 1024 schedule allocate 7 MB, one per group 0.1 MB.
		groups := make([][]int, f.pof2/(2*m))
		for r := range p {
			nr := f.newRank(r)
			if nr < 0 {
				continue
			}
			q := f.real(nr ^ m)
			b.exchange(r, q, have[r], have[q], false)
			g := nr / (2 * m)
			if groups[g] == nil {
				groups[g] = union(have[r], have[q])
			}
			next[r] = groups[g]
		}
		have = next
	}
	all := seq(0, p)
	for r := 0; r < 2*f.rem; r += 2 {
		b.send(r+1, r, all)
		b.recv(r, r+1, all, false)
	}
}

// union merges two sorted sets of ranks into a new sorted set. (A map per
// call made the P = 1024 barrier schedule allocate about 140 MB.)
func union(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default: // equal
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
