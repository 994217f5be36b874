package interpreter

// readyQueue orders ready ranks by (clock, rank): ties run in rank order,
// which makes every simulation deterministic.
type readyQueue struct{ ranks []*rank }

func (q *readyQueue) Len() int { return len(q.ranks) }

func (q *readyQueue) before(a, b *rank) bool {
	if a.clock != b.clock {
		return a.clock < b.clock
	}
	return a.id < b.id
}

func (q *readyQueue) Less(i, j int) bool { return q.before(q.ranks[i], q.ranks[j]) }

func (q *readyQueue) Swap(i, j int) {
	q.ranks[i], q.ranks[j] = q.ranks[j], q.ranks[i]
	q.ranks[i].heapIdx, q.ranks[j].heapIdx = i, j
}

func (q *readyQueue) Push(x any) {
	r := x.(*rank)
	r.heapIdx = len(q.ranks)
	q.ranks = append(q.ranks, r)
}

func (q *readyQueue) Pop() any {
	n := len(q.ranks) - 1
	r := q.ranks[n]
	q.ranks = q.ranks[:n]
	return r
}
