package interpreter

// channelLoad tracks the transfers occupying one shared channel, so that a
// new transfer knows how many others it shares the channel with (its
// contention factor). The factor is fixed when the transfer starts, as in
// the placement predictor of Peryshkova and Kurnosov.
type channelLoad struct {
	spans []span
}

type span struct{ start, end float64 }

// transfer books a transfer of uncontended duration d starting at t on
// the given channels and returns its end time. The channel that slows it
// most decides its duration; it occupies all of them.
func (s *sim) transfer(chans []int, t, d float64, n int) float64 {
	if len(chans) == 0 || d == 0 {
		return t + d
	}
	dur := d
	for _, ch := range chans {
		if cf := s.load(ch, t); cf > 1 {
			extra, ratio := s.net.Contention(ch, cf, n)
			dur = max(dur, d*ratio+extra)
		}
	}
	for _, ch := range chans {
		l := s.channel(ch)
		l.spans = append(l.spans, span{t, t + dur})
	}
	return t + dur
}

// load returns the contention factor a transfer starting at t on ch would
// see: 1 plus the transfers occupying ch at t.
func (s *sim) load(ch int, t float64) int {
	l := s.channel(ch)
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
	return cf
}

// denseChannels bounds the channel numbers kept in a slice rather than a
// map: networks number their channels from 0 (per node and kind).
const denseChannels = 1 << 16

// channel returns the load of channel ch, creating it.
func (s *sim) channel(ch int) *channelLoad {
	if ch >= 0 && ch < denseChannels {
		for ch >= len(s.chanList) {
			s.chanList = append(s.chanList, nil)
		}
		if s.chanList[ch] == nil {
			s.chanList[ch] = &channelLoad{}
		}
		return s.chanList[ch]
	}
	l := s.chans[ch]
	if l == nil {
		l = &channelLoad{}
		s.chans[ch] = l
	}
	return l
}
