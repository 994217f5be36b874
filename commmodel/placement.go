package commmodel

import (
	"fmt"
	"strconv"
	"strings"
)

// Order is how ranks are dealt to nodes.
type Order uint8

const (
	// Block fills a node before moving to the next: ranks 0..ppn-1 on node 0.
	Block Order = iota
	// RoundRobin deals ranks to nodes in turn: rank r on node r mod nodes.
	RoundRobin
)

func (o Order) String() string {
	if o == RoundRobin {
		return "round-robin"
	}
	return "block"
}

// ParseOrder reads "block" or "round-robin" (also "rr", "cyclic").
func ParseOrder(s string) (Order, error) {
	switch strings.ToLower(s) {
	case "block", "":
		return Block, nil
	case "round-robin", "roundrobin", "rr", "cyclic":
		return RoundRobin, nil
	}
	return 0, fmt.Errorf("commmodel: unknown placement order %q (want block or round-robin)", s)
}

// Placement maps each rank to a node, a socket of that node and a core of
// that socket. Within a node, ranks fill socket 0 first, then socket 1, as
// a block core binding does.
type Placement struct {
	P, Nodes, PPN int
	Order         Order
	Node          []int
	Socket        []int
	Core          []int
}

// Place puts p ranks on nodes nodes with at most ppn per node.
func (m *Machine) Place(p, nodes, ppn int, order Order) (*Placement, error) {
	switch {
	case p < 1:
		return nil, fmt.Errorf("commmodel: placement needs at least one rank, got %d", p)
	case nodes < 1 || nodes > m.Nodes:
		return nil, fmt.Errorf("commmodel: placement on %d nodes, machine %q has %d", nodes, m.Name, m.Nodes)
	case ppn < 1 || ppn > m.CoresPerNode():
		return nil, fmt.Errorf("commmodel: %d ranks per node, machine %q has %d cores per node", ppn, m.Name, m.CoresPerNode())
	case p > nodes*ppn:
		return nil, fmt.Errorf("commmodel: %d ranks do not fit on %d nodes x %d", p, nodes, ppn)
	}
	pl := &Placement{P: p, Nodes: nodes, PPN: ppn, Order: order,
		Node: make([]int, p), Socket: make([]int, p), Core: make([]int, p)}
	slot := make([]int, nodes)
	for r := range p {
		n := r / ppn
		if order == RoundRobin {
			n = r % nodes
		}
		k := slot[n]
		slot[n]++
		pl.Node[r] = n
		pl.Socket[r] = k / m.CoresPerSocket
		pl.Core[r] = k % m.CoresPerSocket
	}
	return pl, nil
}

// ParseConfig reads a placement written "NODESxPPN" (e.g. "2x4").
func ParseConfig(s string) (nodes, ppn int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		nodes, err = strconv.Atoi(a)
		if err == nil {
			ppn, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || nodes < 1 || ppn < 1 {
		return 0, 0, fmt.Errorf("commmodel: placement %q: want NODESxPPN, e.g. 2x4", s)
	}
	return nodes, ppn, nil
}

// NodeRanks lists the ranks of each used node, in rank order.
func (pl *Placement) NodeRanks() [][]int {
	var out [][]int
	idx := map[int]int{}
	for r, n := range pl.Node {
		i, ok := idx[n]
		if !ok {
			i = len(out)
			idx[n] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out
}

// RanksOnNode returns how many ranks share rank r's node.
func (pl *Placement) RanksOnNode(r int) int {
	n := 0
	for _, x := range pl.Node {
		n += btoi(x == pl.Node[r])
	}
	return n
}
