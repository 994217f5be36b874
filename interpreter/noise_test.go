package interpreter

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// uniformNoise stretches each computation by a factor drawn uniformly
// from [0.5, 1.5): no change on average.
func uniformNoise(t float64, rng *rand.Rand) float64 { return t * (0.5 + rng.Float64()) }

func simulateRingNoise(t *testing.T, p int, noise func(float64, *rand.Rand) float64, seed uint64) *Run {
	t.Helper()
	prog, pkg := loadSSA(t, "./testdata/ring")
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
	sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: []string{"-n", "50", "-steps", "200"}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{Noise: noise, NoiseSeed: seed, Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// Noise that changes no rank's compute on average still costs time where
// ranks synchronise: each step waits for the rank drawn slowest. The
// simulation is the same for the same seed.
func TestNoiseCostsTimeAtSynchronisations(t *testing.T) {
	const p = 4
	quiet := simulateRingNoise(t, p, nil, 0)
	noisy := simulateRingNoise(t, p, uniformNoise, 1)
	again := simulateRingNoise(t, p, uniformNoise, 1)
	other := simulateRingNoise(t, p, uniformNoise, 2)
	if !reflect.DeepEqual(noisy, again) {
		t.Error("two simulations with the same seed differ")
	}
	if reflect.DeepEqual(noisy, other) {
		t.Error("simulations with different seeds are the same")
	}
	for r := range p {
		// 200 steps of independent factors: the sum is within a few
		// percent of the noiseless compute.
		if got, want := noisy.Ranks[r].Compute, quiet.Ranks[r].Compute; math.Abs(got-want) > 0.05*want {
			t.Errorf("rank %d: compute %g with noise, %g without", r, got, want)
		}
	}
	// The expected maximum of 4 uniform factors on [0.5, 1.5) is 1.3: the
	// compute part of every step grows by about that much.
	if noisy.Makespan < 1.1*quiet.Makespan {
		t.Errorf("makespan %g with noise, %g without: synchronisations should wait for the slowest draw", noisy.Makespan, quiet.Makespan)
	}
}
