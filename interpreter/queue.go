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
	q.siftUp(len(q.items) - 1)
}

// siftUp moves entry i towards the head while it goes before its parent.
func (q *readyQueue) siftUp(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !q.items[i].before(q.items[parent]) {
			break
		}
		q.items[i], q.items[parent] = q.items[parent], q.items[i]
		i = parent
	}
}

// moveUp restores r's place after its clock moved earlier while it
// waited in the queue (rare: a polling rank whose other request completed
// first), so it finds r's entry by a scan.
func (q *readyQueue) moveUp(r *rank) {
	for i := range q.items {
		if q.items[i].r != r {
			continue
		}
		q.items[i].clock = r.clock
		q.siftUp(i)
		return
	}
}

func (q *readyQueue) pop() *rank {
	n := len(q.items) - 1
	top := q.items[0].r
	last := q.items[n]
	q.items[n] = readyItem{}
	q.items = q.items[:n]
	if n > 0 {
		q.replaceTop(last)
	}
	return top
}

// pushPop pushes r and pops the earliest rank, in one pass: the caller
// knows that the head goes before r, so r takes the head's place.
func (q *readyQueue) pushPop(r *rank) *rank {
	top := q.items[0].r
	q.replaceTop(readyItem{clock: r.clock, id: r.id, r: r})
	return top
}

// replaceTop puts x in place of the head and restores the heap order. The
// hole left by the head goes down to a leaf along the earlier children
// (one comparison per level), then x rises from there: x, an entry from
// the bottom, usually belongs near the bottom, so this takes about half
// the comparisons of sifting x down from the top.
func (q *readyQueue) replaceTop(x readyItem) {
	items := q.items
	n := len(items)
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && items[c+1].before(items[c]) {
			c++
		}
		items[i] = items[c]
		i = c
	}
	for i > 0 {
		parent := (i - 1) / 2
		if !x.before(items[parent]) {
			break
		}
		items[i] = items[parent]
		i = parent
	}
	items[i] = x
}
