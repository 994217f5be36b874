package prediction

import (
	"math"
	"testing"
)

// Reallocations stand out from their neighbours; the shape of real work,
// however steep, does not.
func TestGrowthSpikesLeaveTheShape(t *testing.T) {
	const n = 2000
	times := make([]float64, n)
	for i := range times {
		x := (float64(i)/n - 0.5) / 0.08
		times[i] = 30 + 2400*math.Exp(-x*x) // 3 to 83 entries a row
	}
	spikes := map[int]float64{0: 5000, 700: 90000, 701: 40000, 1500: 1e6, n - 1: 8000}
	withSpikes := append([]float64(nil), times...)
	for i, t := range spikes {
		withSpikes[i] = t
	}
	got, changed := withoutGrowthSpikes(withSpikes)
	if changed != len(spikes) {
		t.Errorf("%d iterations changed, want the %d spikes", changed, len(spikes))
	}
	for i := range got {
		if d := math.Abs(got[i]-times[i]) / times[i]; d > 0.2 {
			t.Errorf("iteration %d: %.0f ns, want about %.0f", i, got[i], times[i])
		}
	}
	if withSpikes[700] != 90000 {
		t.Error("the profile's vector was changed in place")
	}
	if same, changed := withoutGrowthSpikes(times); changed != 0 || &same[0] != &times[0] {
		t.Errorf("a smooth vector: %d iterations changed", changed)
	}
}
