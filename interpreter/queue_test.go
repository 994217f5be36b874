package interpreter

import (
	"math/rand"
	"sort"
	"testing"
)

// The ready queue pops ranks by (clock, id), whatever the push order.
func TestReadyQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 2, 7, 100} {
		var q readyQueue
		var ranks []*rank
		for i := range n {
			r := &rank{id: i, clock: float64(rng.Intn(5))} // many ties
			ranks = append(ranks, r)
		}
		rng.Shuffle(n, func(i, j int) { ranks[i], ranks[j] = ranks[j], ranks[i] })
		for _, r := range ranks {
			q.push(r)
		}
		sort.Slice(ranks, func(i, j int) bool {
			if ranks[i].clock != ranks[j].clock {
				return ranks[i].clock < ranks[j].clock
			}
			return ranks[i].id < ranks[j].id
		})
		for i, want := range ranks {
			if q.earlier(want) {
				t.Fatalf("n=%d: queue head goes before rank %d, the earliest", n, want.id)
			}
			if got := q.pop(); got != want {
				t.Fatalf("n=%d: pop %d = rank %d (t=%g), want rank %d (t=%g)", n, i, got.id, got.clock, want.id, want.clock)
			}
		}
		if q.Len() != 0 {
			t.Errorf("n=%d: %d left", n, q.Len())
		}
	}
}

// pushPop gives what push then pop give.
func TestReadyQueuePushPop(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var a, b readyQueue
	id := 0
	newRank := func() *rank {
		id++
		return &rank{id: id, clock: float64(rng.Intn(20))}
	}
	for range 50 {
		r := newRank()
		a.push(r)
		b.push(r)
	}
	for range 1000 {
		r := newRank()
		if !a.earlier(r) {
			continue
		}
		a.push(r)
		want := a.pop()
		if got := b.pushPop(r); got != want {
			t.Fatalf("pushPop = rank %d, push and pop give rank %d", got.id, want.id)
		}
	}
	for a.Len() > 0 {
		if got, want := b.pop(), a.pop(); got != want {
			t.Fatalf("pop = rank %d, want rank %d", got.id, want.id)
		}
	}
}
