package interpreter

import (
	"fmt"
	"sort"
	"strings"
)

// Group is a communicator other than the world, made by OpSplit: the world
// ranks of its members in the order of their ranks in it. The world
// communicator is a nil *Group.
type Group struct {
	ID      int   // 1, 2, ... in the order the simulation made them
	Members []int // world ranks, by rank in the group
	index   map[int]int
}

func newGroup(id int, members []int) *Group {
	g := &Group{ID: id, Members: members, index: make(map[int]int, len(members))}
	for i, w := range members {
		g.index[w] = i
	}
	return g
}

// Size is the number of ranks in g.
func (g *Group) Size() int { return len(g.Members) }

// String names g for reports: its id and its members' world ranks (the
// first eight of a larger one).
func (g *Group) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "communicator %d (world ranks", g.ID)
	for i, w := range g.Members {
		if i == 8 {
			fmt.Fprintf(&b, " ... %d ranks in all", len(g.Members))
			break
		}
		fmt.Fprintf(&b, " %d", w)
	}
	b.WriteString(")")
	return b.String()
}

// RankOf is the rank in g of world rank w, if w is a member.
func (g *Group) RankOf(w int) (int, bool) {
	i, ok := g.index[w]
	return i, ok
}

// Messages of different communicators never match: each has a context for
// its point-to-point messages and one for its collectives' (the world's
// are 0 and 1).
func userCtx(g *Group) int {
	if g == nil {
		return 0
	}
	return 2 * g.ID
}

func collCtx(g *Group) int { return userCtx(g) + 1 }

// collKey names one collective: its communicator and its number among the
// collectives of that communicator, the same on every member.
type collKey struct{ group, seq int }

func groupID(g *Group) int {
	if g == nil {
		return 0
	}
	return g.ID
}

// splitBytes is what each rank contributes to a Split's Allgather: its
// color and key.
const splitBytes = 8

// splitState gathers the colors and keys of one Split's ranks; the groups
// are made when the first member of each finishes.
type splitState struct {
	color, key []int // by rank in the parent communicator
	joined     int
	finished   int
	groups     map[int]*Group // by color
}

// joinSplit records r's color and key for the Split it starts.
func (s *sim) joinSplit(k collKey, n, me int, op Op) {
	st := s.splits[k]
	if st == nil {
		st = &splitState{color: make([]int, n), key: make([]int, n), groups: map[int]*Group{}}
		s.splits[k] = st
	}
	st.color[me], st.key[me] = op.Color, op.Key
	st.joined++
}

// finishSplit is the communicator r gets from the Split it just finished.
func (s *sim) finishSplit(r *rank, c *collective) (*Group, error) {
	k := collKey{groupID(c.op.Group), c.seq}
	st := s.splits[k]
	if st == nil || st.joined < len(st.color) {
		return nil, fmt.Errorf("internal error: Split finished before every rank of the communicator joined it")
	}
	parent := c.op.Group
	me := r.id
	if parent != nil {
		me = parent.index[r.id]
	}
	st.finished++
	if st.finished == len(st.color) {
		delete(s.splits, k)
	}
	color := st.color[me]
	if color < 0 {
		return nil, nil
	}
	if g := st.groups[color]; g != nil {
		return g, nil
	}
	var idx []int
	for i, c := range st.color {
		if c == color {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return st.key[idx[a]] < st.key[idx[b]] })
	members := make([]int, len(idx))
	for i, p := range idx {
		members[i] = world(parent, p)
	}
	s.groups++
	g := newGroup(s.groups, members)
	st.groups[color] = g
	return g, nil
}
