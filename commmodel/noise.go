package commmodel

import (
	"math"
)

// Noise describes the detours that interrupt a rank's computation: gaps
// in a loop that does nothing but read the clock, longer than Threshold,
// measured with Ranks ranks of a node doing so at once (predict bench).
//
// A profile's compute times already contain the mean of such detours;
// what they lack is their spread: which rank is interrupted, and when.
// At every synchronisation the ranks wait for the one interrupted last,
// so the spread costs time that grows with the rank count (Hoefler et
// al., "Characterizing the influence of system noise on large-scale
// applications by simulation", SC 2010, the LogGOPSim noise injection).
type Noise struct {
	Threshold float64 `yaml:"threshold"` // s: shorter gaps are not detours
	Rate      float64 `yaml:"rate"`      // detours per second of computation, per rank
	// Detours is the distribution of the detour durations (s): the
	// measured detours, sorted, cut into len bins of equal count, and
	// each bin's mean; so the table's mean is the measured mean, the
	// longest detours included. Sorted.
	Detours []float64 `yaml:"detours"`
	Ranks   int       `yaml:"ranks"` // ranks per node running when measured
}

// maxNoiseBins bounds the detour table.
const maxNoiseBins = 1024

func (n *Noise) validate() error {
	if !(n.Threshold > 0) || n.Threshold > 1 {
		return errAt("noise.threshold must be between 0 and 1 s", "noise", "threshold")
	}
	if !(n.Rate >= 0) || n.Rate > 1e7 {
		return errAt("noise.rate must be between 0 and 1e7 detours per second", "noise", "rate")
	}
	if n.Rate > 0 && len(n.Detours) == 0 || len(n.Detours) > maxNoiseBins {
		return errAt("noise.detours needs 1 to 1024 entries when rate > 0", "noise", "detours")
	}
	for i, d := range n.Detours {
		if !(d >= n.Threshold) || d > 1 {
			return errAt("noise.detours must be at least the threshold and at most 1 s", "noise", "detours", i)
		}
		if i > 0 && d < n.Detours[i-1] {
			return errAt("noise.detours must be sorted", "noise", "detours", i)
		}
	}
	if n.Ranks < 1 {
		return errAt("noise.ranks must be at least 1", "noise", "ranks")
	}
	if n.Rate*n.Mean() >= 1 {
		return errAt("noise.rate times the mean detour must be below 1 (detours would take all the time)", "noise", "rate")
	}
	return nil
}

// Mean is the mean detour duration.
func (n *Noise) Mean() float64 {
	mean, _ := n.moments()
	return mean
}

// moments are the mean of the detour durations and of their squares.
func (n *Noise) moments() (mean, meanSquare float64) {
	if len(n.Detours) == 0 {
		return 0, 0
	}
	for _, d := range n.Detours {
		mean += d
		meanSquare += d * d
	}
	k := float64(len(n.Detours))
	return mean / k, meanSquare / k
}

// Detour is the duration at probability u in [0, 1): the entry of u's
// bin, so that draws have the table's mean.
func (n *Noise) Detour(u float64) float64 {
	i := int(u * float64(len(n.Detours)))
	return n.Detours[min(max(i, 0), len(n.Detours)-1)]
}

// Rand is the source of randomness Perturb draws from: a deterministic
// generator per rank keeps predictions reproducible.
type Rand interface {
	Float64() float64
	NormFloat64() float64
}

// poissonExact bounds the expected detour count sampled one by one; above
// it the sum of the detours is drawn from its normal approximation.
const poissonExact = 30

// Perturb returns the time a computation modelled as t (which, like a
// profile's times, contains the mean detour time) takes with detours
// drawn from r: t without the mean detours, plus a Poisson number of
// detours of the measured durations. Its mean over many draws is t.
func (n *Noise) Perturb(t float64, r Rand) float64 { return n.Perturber()(t, r) }

// Perturber returns Perturb with the table's moments computed once, for a
// simulation that perturbs every stretch of every rank's computation.
func (n *Noise) Perturber() func(t float64, r Rand) float64 {
	if n == nil || n.Rate == 0 || len(n.Detours) == 0 {
		return func(t float64, _ Rand) float64 { return t }
	}
	mean, meanSquare := n.moments()
	return func(t float64, r Rand) float64 {
		if !(t > 0) {
			return t
		}
		base := t / (1 + n.Rate*mean)
		lambda := n.Rate * base
		if lambda > poissonExact {
			// The sum of Poisson(lambda) detours: mean lambda E[d],
			// variance lambda E[d^2].
			s := lambda*mean + math.Sqrt(lambda*meanSquare)*r.NormFloat64()
			return base + max(s, 0)
		}
		// Poisson by inversion of its distribution function.
		u := r.Float64()
		k, p := 0, math.Exp(-lambda)
		cum := p
		for u > cum && k < 4*poissonExact {
			k++
			p *= lambda / float64(k)
			cum += p
		}
		extra := 0.0
		for range k {
			extra += n.Detour(r.Float64())
		}
		return base + extra
	}
}
