package bench

import (
	"math"
	"testing"
)

func TestSegmentedFitFindsProtocolChange(t *testing.T) {
	// Eager up to 8 KiB: 1 us + m/2 GB/s; rendezvous above: 5 us + m/4 GB/s.
	var s []Sample
	for m := 1; m <= 1<<22; m *= 4 {
		t := 1e-6 + float64(m)/2e9
		if m > 8192 {
			t = 5e-6 + float64(m)/4e9
		}
		s = append(s, Sample{m, t})
	}
	lines := SegmentedFit(s, 3)
	if len(lines) != 2 {
		t.Fatalf("got %d segments, want 2: %+v", len(lines), lines)
	}
	if lines[1].From != 16384 {
		t.Errorf("break at %d, want 16384", lines[1].From)
	}
	for i, want := range []Line{{1, 1e-6, 2e9}, {16384, 5e-6, 4e9}} {
		got := lines[i]
		if math.Abs(got.Latency-want.Latency) > 1e-9 || math.Abs(got.Bandwidth-want.Bandwidth)/want.Bandwidth > 1e-6 {
			t.Errorf("segment %d: got %+v, want %+v", i, got, want)
		}
	}
}

func TestSegmentedFitKeepsOneLine(t *testing.T) {
	var s []Sample
	for m := 1; m <= 1<<22; m *= 4 {
		s = append(s, Sample{m, 2e-6 + float64(m)/1e9})
	}
	if lines := SegmentedFit(s, 3); len(lines) != 1 || math.Abs(lines[0].Latency-2e-6) > 1e-12 {
		t.Errorf("got %+v, want one line with latency 2e-6", lines)
	}
}

func TestSummarise(t *testing.T) {
	st := Summarise([]float64{5, 1, 2, 3, 4, 100, 3, 3}, 10, 0.25)
	if st.Valid != 8 || st.Trimmed != 4 || st.Min != 1 || st.Max != 100 {
		t.Fatalf("counts: %+v", st)
	}
	// Sorted: 1 2 3 3 3 4 5 100; trimming 2 from each end leaves 3 3 3 4.
	if math.Abs(st.Mean-3.25) > 1e-12 {
		t.Errorf("mean %v, want 3.25", st.Mean)
	}
	// sigma of {3,3,3,4} = 0.5; SE = 0.5/sqrt(8); t(0.95, 3) = 3.182446.
	if math.Abs(st.AbsErr-3.182446305284*0.5/math.Sqrt(8)) > 1e-6 {
		t.Errorf("abs err %v", st.AbsErr)
	}
}

// The ping-pong of the 2-core VM's calibration of 2026-11-23 15:28 UTC
// (one-way = round trip / 2, trimmed means): the 8-byte size ran in the
// machine's fast mode (0.66 us) while the sizes around it took 1.55-1.9
// us. Least squares fitted a first segment of 0.72 us and 77 MB/s up to
// 256 bytes; the line must follow the other sizes.
func TestSegmentedFitResistsOneStrayPoint(t *testing.T) {
	rtt := []struct {
		bytes int
		rtt   float64
	}{{0, 3.103e-06}, {8, 1.315e-06}, {64, 3.399e-06}, {256, 3.368e-06}, {1024, 3.878e-06},
		{4096, 4.435e-06}, {8192, 4.772e-06}, {16384, 7.494e-06}, {32768, 1.101e-05}, {65536, 1.665e-05},
		{131072, 3.544e-05}, {262144, 6.094e-05}, {1048576, 0.0002559}, {4194304, 0.0007126}}
	var s []Sample
	for _, p := range rtt {
		s = append(s, Sample{p.bytes, p.rtt / 2})
	}
	lines := SegmentedFit(s, 3)
	first := lines[0]
	if first.Latency < 1.4e-6 || first.Latency > 1.8e-6 || first.Bandwidth < 1e9 {
		t.Errorf("first segment %+v: want a latency of the small sizes' 1.55-1.7 us and GB/s", first)
	}
	// Every size but the stray one within 35 % of the fit.
	for _, p := range s {
		l := lines[0]
		for _, seg := range lines[1:] {
			if p.Bytes >= seg.From {
				l = seg
			}
		}
		fit := l.Latency + float64(p.Bytes)/l.Bandwidth
		if p.Bytes != 8 && math.Abs(fit-p.Time)/p.Time > 0.35 {
			t.Errorf("%d bytes: fit %.3g s, measured %.3g s (lines %+v)", p.Bytes, fit, p.Time, lines)
		}
	}
}

// TestPingPongRounds: small messages make 64 round trips a launch, fewer
// as they grow, one from 256 KiB; the row's statistics are per round
// trip.
func TestPingPongRounds(t *testing.T) {
	for n, want := range map[int]int{0: 64, 8: 64, 4096: 64, 8192: 32, 65536: 4, 131072: 2, 262144: 1, 4 << 20: 1} {
		if got := pingPongRounds(n); got != want {
			t.Errorf("pingPongRounds(%d) = %d, want %d", n, got, want)
		}
	}
	st := Summarise([]float64{4e-6, 8e-6, 6e-6, 5e-6}, 6, 0).per(4)
	if st.Mean != 23e-6/16 || st.Min != 1e-6 || st.Max != 2e-6 || st.Launches != 6 || st.Valid != 4 {
		t.Errorf("per round trip: %+v", st)
	}
}
