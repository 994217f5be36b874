package bench

import (
	"math"
	"testing"
)

// The detour table is sorted, keeps the rare long detour in its last bin,
// and, with bins of equal size, keeps the mean.
func TestBinMeansKeepsTheMean(t *testing.T) {
	v := []float64{9e-6, 3e-6, 4e-6, 3.8e-3, 5e-6, 3e-6, 6e-6, 7e-6}
	got := binMeans(v, 4)
	if len(got) != 4 {
		t.Fatalf("%d bins", len(got))
	}
	mean, want := 0.0, 0.0
	for i, x := range got {
		mean += x / 4
		if i > 0 && x < got[i-1] {
			t.Errorf("bins not sorted: %v", got)
		}
	}
	for _, x := range v {
		want += x / 8
	}
	if math.Abs(mean-want) > 1e-15 {
		t.Errorf("mean of the bins %g, of the values %g", mean, want)
	}
	if got[3] < 1e-3 {
		t.Errorf("the 3.8 ms detour was lost: %v", got)
	}
	if len(binMeans(v[:2], 64)) != 2 {
		t.Error("more bins than values")
	}
}
