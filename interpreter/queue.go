package interpreter

// readyQueue orders ready ranks by (clock, rank): ties run in rank order,
// which makes every simulation deterministic. It is a binary heap whose
// entries carry their keys, so that ordering touches only the heap's own
// array, not the ranks (a rank's clock does not change while it waits in
// the queue).
type readyQueue struct{ items []readyItem }

type readyItem struct {
	clock float64
	id    int
	r     *rank
}

func (a readyItem) before(b readyItem) bool {
	if a.clock != b.clock {
		return a.clock < b.clock
	}
	return a.id < b.id
}

func (q *readyQueue) Len() int { return len(q.items) }

// earlier reports whether the first rank in the queue goes before r.
func (q *readyQueue) earlier(r *rank) bool {
	return len(q.items) > 0 && q.items[0].before(readyItem{clock: r.clock, id: r.id})
}

func (q *readyQueue) push(r *rank) {
	q.items = append(q.items, readyItem{clock: r.clock, id: r.id, r: r})
	// Sift up.
	i := len(q.items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !q.items[i].before(q.items[parent]) {
			break
		}
		q.items[i], q.items[parent] = q.items[parent], q.items[i]
		i = parent
	}
}

func (q *readyQueue) pop() *rank {
	n := len(q.items) - 1
	top := q.items[0].r
	q.items[0] = q.items[n]
	q.items[n] = readyItem{}
	q.items = q.items[:n]
	// Sift down.
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.items[r].before(q.items[l]) {
			m = r
		}
		if !q.items[m].before(q.items[i]) {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}
