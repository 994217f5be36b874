package interpreter

// Reductions, gathers, scatters and all-to-alls carry data the way Bcast
// does: each member's Op.Send (its contribution, when the program passes
// one) is kept until every member has finished, and a member whose
// Op.Recv names a buffer receives all contributions, in member order, as
// a Contributions payload for its DataReceiver to combine (sum them, lay
// them end to end, take its block). So a count that every rank knows and
// an Allreduce sums, the block sizes an Allgather spreads, the counts an
// Alltoall exchanges before an Alltoallv, stay known.

// Contributions is the payload of a reduction, gather, scatter or
// all-to-all: every member's Op.Send, in the communicator's order.
type Contributions struct {
	Kind     OpKind
	Prefix   Prefix // an OpAllgather that is a prefix reduction
	Parts    []any
	Me, Root int // the receiving member's index and the root's, in the communicator
}

// gathered collects the contributions to one collective.
type gathered struct {
	parts []any
	have  int // members that contributed
	left  int // members yet to finish
}

// carriesContributions says which collectives combine their members' data.
func carriesContributions(k OpKind) bool {
	switch k {
	case OpAllreduce, OpReduce, OpAllgather, OpGather, OpScatter, OpAlltoall:
		return true
	}
	return false
}

// contribute records member me's part of the collective key of n members.
func (s *sim) contribute(key collKey, n, me int, send any) {
	g := s.gathers[key]
	if g == nil {
		g = &gathered{parts: make([]any, n), left: n}
		s.gathers[key] = g
	}
	if send != nil {
		g.parts[me] = send
		g.have++
	}
}

// receiveContributions hands r what collective c combined, if every
// member that sends contributed (a Scatter's root; all the others) and r
// receives (a Reduce's or Gather's root; every member of the others).
func (s *sim) receiveContributions(r *rank, c *collective) {
	key := collKey{groupID(c.op.Group), c.seq}
	g := s.gathers[key]
	if g == nil {
		return
	}
	me, root := r.id, c.op.Root
	if grp := c.op.Group; grp != nil {
		me, root = grp.index[r.id], grp.index[c.op.Root]
	}
	complete := g.have == len(g.parts)
	switch c.op.Kind {
	case OpReduce, OpGather:
		complete = complete && me == root // only the root receives
	case OpScatter:
		complete = g.parts[root] != nil // only the root sends
	}
	if d, ok := r.prog.(DataReceiver); ok && c.op.Recv != nil && complete {
		d.ReceiveData(c.op.Recv, Contributions{Kind: c.op.Kind, Prefix: c.op.Prefix, Parts: g.parts, Me: me, Root: root})
	}
	if g.left--; g.left <= 0 {
		delete(s.gathers, key)
	}
}

// maxContributed bounds the values all members of a gather or an
// all-to-all contribute together, so that the copies stay small at large
// P (an all-to-all of 64-element blocks at P = 1024 would copy 67
// million).
const maxContributed = 1 << 20

// perMember is the most elements a member of a collective of size members
// contributes: limit, or less where the members together would pass
// maxContributed.
func perMember(limit int64, size int) int64 {
	return min(limit, maxContributed/int64(max(1, size)))
}

// reduceSend is a rank's contribution to a reduction: its elements and
// the operation (mpi.Sum, Prod, Min, Max: 0 to 3).
type reduceSend struct {
	vals []value
	op   int64
}

// reduceContribution is what a rank contributes to Reduce or Allreduce
// of buf with operation op: nil unless both are known well enough (a
// small buffer with a known element, a known operation).
func reduceContribution(buf, op value) any {
	vals, ok := payload(buf).([]value)
	if !ok || op.k != vInt || op.i < 0 || op.i > 3 {
		return nil
	}
	return reduceSend{vals: vals, op: op.i}
}

// maxGathered bounds the buffers of gathers, scatters and all-to-alls
// that carry values: an Allgather of one count per rank at P = 1024
// fills 1024 elements, as does each rank's buffer of an Alltoall of
// counts.
const maxGathered = 1 << 16

// combine makes the values member c.Me receives from the contributions:
// a gather's laid end to end, a scatter's block of the root's buffer,
// an all-to-all's block of every member's, a reduction's combined element
// by element (unknown where a contribution is unknown or of another
// kind).
func combine(c Contributions) ([]value, bool) {
	n := len(c.Parts)
	switch {
	case c.Prefix == PrefixScan:
		return reduceParts(c.Parts[:c.Me+1])
	case c.Prefix == PrefixExscan:
		return reduceParts(c.Parts[:c.Me])
	}
	switch c.Kind {
	case OpAllgather, OpGather:
		var out []value
		for _, p := range c.Parts {
			vals, ok := p.([]value)
			if !ok || len(out)+len(vals) > maxGathered {
				return nil, false
			}
			out = append(out, vals...)
		}
		return out, true
	case OpScatter:
		vals, ok := c.Parts[c.Root].([]value)
		if !ok || len(vals)%n != 0 {
			return nil, false
		}
		m := len(vals) / n
		return vals[c.Me*m : (c.Me+1)*m], true
	case OpAlltoall:
		// Block Me of every member's buffer, in member order.
		var out []value
		for _, p := range c.Parts {
			vals, ok := p.([]value)
			if !ok || len(vals)%n != 0 {
				return nil, false
			}
			m := len(vals) / n
			out = append(out, vals[c.Me*m:(c.Me+1)*m]...)
		}
		return out, true
	}
	return reduceParts(c.Parts)
}

// reduceParts combines reduction contributions element by element, in
// member order (unknown where one is unknown or of another kind).
func reduceParts(parts []any) ([]value, bool) {
	if len(parts) == 0 {
		return nil, false
	}
	first, ok := parts[0].(reduceSend)
	if !ok {
		return nil, false
	}
	out := append([]value(nil), first.vals...)
	for _, p := range parts[1:] {
		s, ok := p.(reduceSend)
		if !ok || s.op != first.op || len(s.vals) != len(out) {
			return nil, false
		}
		for j, v := range s.vals {
			out[j] = reduceValues(out[j], v, s.op)
		}
	}
	return out, out != nil
}

// reduceValues is a op b for mpi's operations (0 Sum, 1 Prod, 2 Min,
// 3 Max) on two known numbers of one kind; unknown otherwise.
func reduceValues(a, b value, op int64) value {
	switch {
	case a.k == vInt && b.k == vInt:
		return intv(reduceOp(a.i, b.i, op))
	case a.k == vFloat && b.k == vFloat:
		return floatv(reduceOp(a.fl(), b.fl(), op))
	}
	return unknown
}

func reduceOp[T int64 | float64](x, y T, op int64) T {
	switch op {
	case 0:
		return x + y
	case 1:
		return x * y
	case 2:
		return min(x, y)
	}
	return max(x, y)
}
