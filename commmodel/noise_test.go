package commmodel

import (
	"math"
	"math/rand/v2"
	"testing"
)

func testNoise() *Noise {
	return &Noise{Threshold: 3e-6, Rate: 2000, Detours: []float64{5e-6, 1e-5, 2e-5, 4e-4}, Ranks: 2}
}

func TestNoiseDetourBins(t *testing.T) {
	n := testNoise()
	for _, tc := range []struct{ u, want float64 }{{0, 5e-6}, {0.24, 5e-6}, {0.25, 1e-5}, {0.6, 2e-5}, {0.99, 4e-4}, {1, 4e-4}} {
		if got := n.Detour(tc.u); got != tc.want {
			t.Errorf("Detour(%g) = %g, want %g", tc.u, got, tc.want)
		}
	}
	if got, want := n.Mean(), (5e-6+1e-5+2e-5+4e-4)/4; math.Abs(got-want) > 1e-18 {
		t.Errorf("Mean = %g, want %g", got, want)
	}
}

// Perturb keeps the modelled time on average (the profile's times contain
// the mean detours) and spreads it: short stretches are mostly a little
// faster, sometimes a detour slower; long ones use the normal
// approximation of the sum.
func TestNoisePerturbKeepsTheMean(t *testing.T) {
	n := testNoise()
	for _, stretch := range []float64{20e-6, 1e-3, 0.1} {
		rng := rand.New(rand.NewPCG(1, 2))
		const draws = 200_000
		sum, sq, slower := 0.0, 0.0, 0
		for range draws {
			x := n.Perturb(stretch, rng)
			sum += x
			sq += x * x
			if x > stretch {
				slower++
			}
		}
		mean := sum / draws
		sd := math.Sqrt(sq/draws - mean*mean)
		if math.Abs(mean-stretch) > 4*sd/math.Sqrt(draws)+1e-12 {
			t.Errorf("stretch %g: mean %g (sd %g)", stretch, mean, sd)
		}
		if sd == 0 || slower == 0 || slower == draws {
			t.Errorf("stretch %g: no spread (sd %g, %d of %d slower)", stretch, sd, slower, draws)
		}
	}
	// 20 us at 2000 detours/s: about 4 % of the stretches get a detour.
	rng := rand.New(rand.NewPCG(1, 2))
	hit := 0
	for range 100_000 {
		if n.Perturb(20e-6, rng) > 20e-6 {
			hit++
		}
	}
	if hit < 3000 || hit > 5000 {
		t.Errorf("%d of 100000 20-us stretches interrupted, want about 3,800", hit)
	}
}

func TestNoisePerturbDeterministic(t *testing.T) {
	n := testNoise()
	a, b := rand.New(rand.NewPCG(7, 3)), rand.New(rand.NewPCG(7, 3))
	for i := range 1000 {
		x, y := n.Perturb(float64(i)*1e-5, a), n.Perturb(float64(i)*1e-5, b)
		if x != y {
			t.Fatalf("draw %d: %g != %g", i, x, y)
		}
	}
	var none *Noise
	if got := none.Perturb(1e-3, a); got != 1e-3 {
		t.Errorf("nil noise changed 1e-3 to %g", got)
	}
}
