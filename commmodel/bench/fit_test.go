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
