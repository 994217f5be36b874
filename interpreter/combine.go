package interpreter

// Reductions and gathers carry data the way Bcast does: each member's
// Op.Send (its contribution, when the program passes one) is kept until
// every member has finished, and a member whose Op.Recv names a buffer
// receives all contributions, in member order, as a Contributions
// payload for its DataReceiver to combine (sum them, or lay them end to
// end). So a count that every rank knows and an Allreduce sums, or the
// block sizes an Allgather spreads, stay known.

// Contributions is the payload of a reduction or gather: every member's
// Op.Send, in the communicator's order.
type Contributions struct {
	Kind  OpKind
	Parts []any
}

// gathered collects the contributions to one collective.
type gathered struct {
	parts []any
	have  int // members that contributed
	left  int // members yet to finish
}

// carriesContributions says which collectives combine their members' data.
func carriesContributions(k OpKind) bool {
	return k == OpAllreduce || k == OpReduce || k == OpAllgather
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
// member contributed and r receives (a Reduce's root, every member of an
// Allreduce or Allgather).
func (s *sim) receiveContributions(r *rank, c *collective) {
	key := collKey{groupID(c.op.Group), c.seq}
	g := s.gathers[key]
	if g == nil {
		return
	}
	d, ok := r.prog.(DataReceiver)
	if ok && c.op.Recv != nil && g.have == len(g.parts) && (c.op.Kind != OpReduce || r.id == c.op.Root) {
		d.ReceiveData(c.op.Recv, Contributions{Kind: c.op.Kind, Parts: g.parts})
	}
	if g.left--; g.left <= 0 {
		delete(s.gathers, key)
	}
}

// reduceSend is a rank's contribution to a reduction: its elements and
// the operation (mpi.Sum, Prod, Min, Max: 0 to 3).
type reduceSend struct {
	vals []value
	op   int64
}

// reduceContribution is what a rank contributes to Reduce or Allreduce of buf with
// operation op: nil unless both are known well enough (a small buffer
// with a known element, a known operation).
func reduceContribution(buf, op value) any {
	vals, ok := payload(buf).([]value)
	if !ok || op.k != vInt || op.i < 0 || op.i > 3 {
		return nil
	}
	return reduceSend{vals: vals, op: op.i}
}

// maxGathered bounds the receive buffers of gathers that carry values:
// an Allgather of one count per rank at P = 1024 fills 1024 elements.
const maxGathered = 1 << 16

// receiveGathered is where an Allgather puts its contributions: buf, when
// it is known and not too large.
func receiveGathered(buf value) any {
	if buf.k != vSlice || buf.obj == nil || buf.n > maxGathered {
		return nil
	}
	return buf
}

// combine makes the values a member receives from the contributions:
// Allgather's laid end to end, a reduction's combined element by element
// (unknown where a contribution is unknown or of another kind).
func combine(c Contributions) ([]value, bool) {
	if c.Kind == OpAllgather {
		var out []value
		for _, p := range c.Parts {
			vals, ok := p.([]value)
			if !ok || len(out)+len(vals) > maxGathered {
				return nil, false
			}
			out = append(out, vals...)
		}
		return out, true
	}
	var out []value
	for i, p := range c.Parts {
		s, ok := p.(reduceSend)
		if !ok || i > 0 && (s.op != c.Parts[0].(reduceSend).op || len(s.vals) != len(out)) {
			return nil, false
		}
		if i == 0 {
			out = append([]value(nil), s.vals...)
			continue
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
		return intv([]int64{a.i + b.i, a.i * b.i, min(a.i, b.i), max(a.i, b.i)}[op])
	case a.k == vFloat && b.k == vFloat:
		x, y := a.fl(), b.fl()
		return floatv([]float64{x + y, x * y, min(x, y), max(x, y)}[op])
	}
	return unknown
}
