package commmodel

// Hockney holds the parameters of the closed forms: per-message start-up
// Alpha, per-byte time Beta, per-byte reduction time Gamma.
type Hockney struct {
	Alpha, Beta, Gamma float64
}

// Hockney returns the closed-form parameters of level l: alpha includes
// both overheads.
func (m *Machine) Hockney(l Level) Hockney {
	p := m.Params(l)
	return Hockney{Alpha: p.SendOverhead + p.Latency + p.RecvOverhead, Beta: 1 / p.Bandwidth, Gamma: m.ReduceTimePerByte}
}

// ClosedForm returns the cost of a collective by the formulas of Thakur,
// Rabenseifner and Gropp (2005) for the one-port model, with n counted as
// in [Generate]. Exact reports whether the formula is exact for this
// algorithm and P (and, for Ring and Rabenseifner, an n that the chunks
// divide evenly); otherwise it is the usual approximation. ok is false
// when there is no closed form (the Leaders all-to-all).
func (h Hockney) ClosedForm(op Op, alg Algorithm, p, n int) (t float64, exact, ok bool) {
	a, b, g := h.Alpha, h.Beta, h.Gamma
	P, N := float64(p), float64(n)
	lg := float64(ceilLog2(p))
	q := pof2floor(p)
	lq := float64(ceilLog2(q))
	fold := p != q
	frac := (P - 1) / P
	switch op {
	case Barrier:
		switch alg {
		case Dissemination:
			return lg * a, true, true
		case Linear:
			return 2 * (P - 1) * a, true, true
		case RecursiveDoubling:
			if fold {
				return (lq + 2) * a, true, true
			}
			return lg * a, true, true
		}
	case Bcast:
		switch alg {
		case Linear:
			return (P - 1) * (a + N*b), true, true
		case Binomial:
			return lg * (a + N*b), true, true
		case ScatterAllgather:
			if isPow2(p) {
				return 2*lg*a + 2*frac*N*b, n%p == 0, true
			}
			return (lg+P-1)*a + 2*frac*N*b, false, true
		case ScatterRing:
			return (lg+P-1)*a + 2*frac*N*b, false, true
		}
	case Reduce:
		switch alg {
		case Linear:
			return (P-1)*(a+N*b) + (P-1)*N*g, true, true
		case Binomial:
			// Not exact otherwise: with P not a power of two a leaf's
			// eager message lands while the root is still combining.
			return lg * (a + N*b + N*g), isPow2(p), true
		case Rabenseifner:
			Q := float64(q)
			t := 2*lq*a + 2*(Q-1)/Q*N*b + (Q-1)/Q*N*g
			if fold {
				t += a + N*b + N*g
			}
			return t, !fold && n%q == 0, true
		}
	case Allreduce:
		switch alg {
		case RecursiveDoubling:
			t := lq * (a + N*b + N*g)
			if fold {
				t += 2*(a+N*b) + N*g
			}
			return t, true, true
		case Rabenseifner:
			Q := float64(q)
			t := 2*lq*a + 2*(Q-1)/Q*N*b + (Q-1)/Q*N*g
			if fold {
				t += 2*(a+N*b) + N*g
			}
			return t, n%q == 0, true
		case Ring:
			return 2*(P-1)*a + 2*frac*N*b + frac*N*g, n%p == 0, true
		case ReduceBcast:
			return lg * (2*a + 2*N*b + N*g), isPow2(p), true
		}
	case Gather, Scatter:
		switch alg {
		case Linear:
			return (P - 1) * (a + N*b), true, true
		case Binomial:
			return lg*a + (P-1)*N*b, isPow2(p), true
		}
	case Allgather:
		switch alg {
		case RecursiveDoubling, Bruck:
			return lg*a + (P-1)*N*b, true, true
		case Ring:
			return (P - 1) * (a + N*b), true, true
		}
	case Alltoall:
		switch alg {
		case Linear, Pairwise:
			return (P - 1) * (a + N*b), true, true
		case Bruck:
			// Step k moves the blocks whose distance has bit k set.
			t := 0.0
			for k := 1; k < p; k *= 2 {
				cnt := 0
				for d := 1; d < p; d++ {
					cnt += btoi(d&k != 0)
				}
				t += a + float64(cnt*p)/P*N*b
			}
			return t, true, true
		}
	}
	return 0, false, false
}
