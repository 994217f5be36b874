package interpreter

import "testing"

// TestLoopExitOneTest: a lone exit test of a group leaves at its own rate,
// spread as error diffusion spreads it: over 1,000 visits, within one of
// its share whichever successor stays in the loop.
func TestLoopExitOneTest(t *testing.T) {
	for _, p := range []float64{0.02, 0.3, 0.5, 0.7, 0.98, 49.0 / 50} {
		for _, stay0 := range []bool{true, false} {
			r := &ssaRank{}
			bc := &blockCode{exitGroup: 0, stay0: stay0}
			leave := p
			if stay0 {
				leave = 1 - p
			}
			exits, last, gap := 0, 0, 0
			for i := 1; i <= 1000; i++ {
				if r.loopExitTaken(bc, p) != stay0 {
					exits++
					gap, last = max(gap, i-last), i
				}
			}
			if want := 1000 * leave; float64(exits) < want-1 || float64(exits) > want+1 {
				t.Errorf("p %g, stay0 %v: %d exits in 1000 visits, want %.0f", p, stay0, exits, want)
			}
			if leave > 0 && float64(gap) > 1/leave+1 {
				t.Errorf("p %g, stay0 %v: %d visits between exits, want at most %.0f", p, stay0, gap, 1/leave+1)
			}
		}
	}
}

// TestLoopExitTestsTogether: a merge leaves when either input runs out,
// each test's exit rate 1/400 per iteration; together the loop runs 200
// iterations per entry, not the 400 of either test alone.
func TestLoopExitTestsTogether(t *testing.T) {
	r := &ssaRank{}
	first := &blockCode{exitGroup: 0, stay0: true}
	second := &blockCode{exitGroup: 0, stay0: true}
	other := &blockCode{exitGroup: 1, stay0: true} // another loop's test
	const stay = 1 - 1.0/400
	var trips []int
	n := 0
	for len(trips) < 5 {
		n++
		if !r.loopExitTaken(first, stay) || !r.loopExitTaken(second, stay) {
			trips, n = append(trips, n), 0
		}
	}
	for _, k := range trips {
		if k < 199 || k > 201 {
			t.Errorf("trips per entry %v, want about 200 each", trips)
			break
		}
	}
	if !r.loopExitTaken(other, stay) {
		t.Error("another loop's test left on its first visit: its accumulator is not the merge's")
	}
}
