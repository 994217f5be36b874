package interpreter

// channelLoad tracks the transfers occupying one shared channel, so that a
// new transfer knows how many others it shares the channel with (its
// contention factor). The factor is fixed when the transfer starts, as in
// the placement predictor of Peryshkova and Kurnosov.
type channelLoad struct {
	spans []span
}

type span struct{ start, end float64 }

// transfer books a transfer of uncontended duration d starting at t and
// returns its end time.
func (s *sim) transfer(ch int, t, d float64, n int) float64 {
	if ch < 0 || d == 0 {
		return t + d
	}
	l := s.chans[ch]
	if l == nil {
		l = &channelLoad{}
		s.chans[ch] = l
	}
	// Drop spans that ended before anything still to be simulated.
	live := l.spans[:0]
	cf := 1
	for _, sp := range l.spans {
		if sp.end <= s.now {
			continue
		}
		live = append(live, sp)
		if sp.start <= t && t < sp.end {
			cf++
		}
	}
	l.spans = live
	if cf > 1 {
		d *= s.net.Slowdown(ch, cf, n)
	}
	l.spans = append(l.spans, span{t, t + d})
	return t + d
}
