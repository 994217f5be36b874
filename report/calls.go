package report

import "math"

// call is one MPI call of one rank, with the synchronisation losses that the
// matching of sends to receives and of collectives across ranks gives it.
type call struct {
	rank       int
	seg        Segment // the MPI segment; Start is the call's entry
	start, end float64

	realSync, potentialSync, timeVariation, overlap float64
}

func (c *call) dur() float64 { return c.end - c.start }

// opClass sorts MPI operations into the DVM analyser's three kinds of
// communication time.
func opClass(op string) string {
	switch op {
	case "Send", "Recv", "Sendrecv", "Isend", "Irecv", "Wait", "Waitall", "Waitany", "Test", "Probe", "Iprobe":
		return "sendrecv"
	case "Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Gatherv", "Scatter", "Scatterv",
		"Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Scan", "Exscan", "ReduceScatter":
		return "collective"
	}
	return "system"
}

// buildCalls turns each rank's MPI and wait segments into calls: a wait
// segment directly followed by an MPI segment of the same op and site is the
// blocked start of that call.
func buildCalls(t *Timeline) [][]*call {
	calls := make([][]*call, len(t.Ranks))
	for r, rt := range t.Ranks {
		segs := rt.Segments
		for i := 0; i < len(segs); i++ {
			s := segs[i]
			if s.Kind == KindCompute {
				continue
			}
			c := &call{rank: r, seg: s, start: s.Start, end: s.End}
			if s.Kind == KindWait && i+1 < len(segs) {
				n := segs[i+1]
				if n.Kind == KindMPI && n.Op == s.Op && n.Site == s.Site && n.Start == s.End {
					c.seg, c.end = n, n.End
					i++
				}
			}
			calls[r] = append(calls[r], c)
		}
	}
	return calls
}

// matchCalls fills in real sync and overlap (point-to-point) and potential
// sync and time variation (collectives).
func matchCalls(calls [][]*call) {
	completer := linkRequests(calls)
	matchP2P(calls, completer)
	matchCollectives(calls)
}

// linkRequests maps each Isend/Irecv to the Wait or Waitall completing it:
// a Wait by its request number, a Waitall (whose requests a trace does not
// list) taking every request still open on the rank.
func linkRequests(calls [][]*call) map[*call]*call {
	completer := map[*call]*call{}
	for _, rc := range calls {
		open := map[int]*call{}
		var order []int // open request numbers in posting order
		for _, c := range rc {
			switch c.seg.Op {
			case "Isend", "Irecv":
				if c.seg.Req > 0 {
					open[c.seg.Req] = c
					order = append(order, c.seg.Req)
				}
			case "Wait":
				if nb, ok := open[c.seg.Req]; ok {
					completer[nb] = c
					delete(open, c.seg.Req)
				}
			case "Waitall":
				for _, req := range order {
					if nb, ok := open[req]; ok {
						completer[nb] = c
					}
				}
				open, order = map[int]*call{}, nil
			}
		}
	}
	return completer
}

type pair struct{ src, dst int }

type pendingSend struct {
	c       *call
	tag     int
	matched bool
}

// matchP2P pairs receives with sends the way MPI does: per source and
// destination, each receive in posting order takes the earliest unmatched
// send whose tag it accepts.
func matchP2P(calls [][]*call, completer map[*call]*call) {
	sends := map[pair][]*pendingSend{}
	for r, rc := range calls {
		for _, c := range rc {
			switch c.seg.Op {
			case "Send", "Isend", "Sendrecv":
				if c.seg.Dest >= 0 {
					k := pair{r, c.seg.Dest}
					sends[k] = append(sends[k], &pendingSend{c: c, tag: c.seg.Tag})
				}
			}
		}
	}
	// head skips each pair's matched prefix, so that long runs match in
	// linear time when tags are used in order.
	head := map[pair]int{}
	match := func(src, dst, tag int) *call {
		k := pair{src, dst}
		q := sends[k]
		for i := head[k]; i < len(q); i++ {
			s := q[i]
			if !s.matched && (tag < 0 || s.tag == tag) {
				s.matched = true
				if i == head[k] {
					for head[k] < len(q) && q[head[k]].matched {
						head[k]++
					}
				}
				return s.c
			}
		}
		return nil
	}
	recvSend := map[*call]*call{} // Irecv -> its matching send
	for r, rc := range calls {
		for _, c := range rc {
			src, tag := c.seg.Source, c.seg.Tag
			switch c.seg.Op {
			case "Recv":
			case "Sendrecv":
				tag = -1 // the trace keeps only the send tag
			case "Irecv":
				if w := completer[c]; w != nil && w.seg.Op == "Wait" {
					src, tag = w.seg.Source, w.seg.Tag
				}
			default:
				continue
			}
			if src < 0 {
				continue
			}
			s := match(src, r, tag)
			if s == nil {
				continue
			}
			if c.seg.Op == "Irecv" {
				recvSend[c] = s
				continue
			}
			c.realSync = clamp(s.start-c.start, c.dur())
		}
	}
	// Non-blocking calls: overlap on the posting call, real sync on the
	// wait against the latest send it completes.
	latest := map[*call]float64{}
	for nb, w := range completer {
		switch nb.seg.Op {
		case "Isend":
			nb.overlap = math.Max(0, w.start-nb.start)
		case "Irecv":
			s := recvSend[nb]
			if s == nil {
				continue
			}
			nb.overlap = math.Max(0, w.start-math.Max(nb.start, s.start))
			if t, ok := latest[w]; !ok || s.start > t {
				latest[w] = s.start
			}
		}
	}
	for w, t := range latest {
		w.realSync = clamp(t-w.start, w.dur())
	}
}

// clamp limits a lost time to [0, max]: a call cannot lose more than it
// lasted.
func clamp(x, max float64) float64 { return math.Min(math.Max(x, 0), max) }

type collKey struct {
	op, site string
	comm, n  int
}

// matchCollectives groups the n-th call of each collective op at each site
// on each communicator across ranks. Traces of real runs do not name
// communicators, so there collectives of different sub-communicators at
// one site fall into one group; predicted timelines do.
func matchCollectives(calls [][]*call) {
	groups := map[collKey][]*call{}
	for _, rc := range calls {
		seen := map[collKey]int{}
		for _, c := range rc {
			if opClass(c.seg.Op) != "collective" {
				continue
			}
			k := collKey{op: c.seg.Op, site: c.seg.Site, comm: c.seg.Comm}
			k.n = seen[k]
			seen[k]++
			groups[k] = append(groups[k], c)
		}
	}
	for _, g := range groups {
		maxIn, maxOut := math.Inf(-1), math.Inf(-1)
		for _, c := range g {
			maxIn, maxOut = math.Max(maxIn, c.start), math.Max(maxOut, c.end)
		}
		for _, c := range g {
			c.potentialSync, c.timeVariation = maxIn-c.start, maxOut-c.end
		}
	}
}
