package prediction

import (
	"fmt"
	"math"

	"github.com/parpredict/parpredict/profiler"
)

// plainMPIShare is the largest share of MPI in the instrumented runs'
// accounted time at which the runs without probes can calibrate compute:
// their compute is their ranks' body time less the instrumented runs' MPI
// time, and where MPI is most of the time (a ping-pong) that difference
// is mostly the two runs' noise (pingpong's three profiles of 2026-11-25
// gave ratios of 0.07, -0.58 and 1.27).
const plainMPIShare = 0.5

// plainNoted is how far from 1 a calibration must be for the report's
// notes to mention it; smaller ones are the usual few per cent by which a
// sum of each region's fastest time undercuts a whole run.
const plainNoted = 0.05

// plainScale is the factor that takes the profile's compute times to those
// of the binary the user runs: the ranks' body time of the program built
// without probes, less the MPI time, over the own times the instrumented
// runs accounted, when it is slower. A probe anywhere in a function can
// change how the compiler lays out its loops, and a tight loop's speed
// can follow its alignment by tens of percent (docs/profiler.md); no
// subtraction of probe costs undoes that. And each region's time is its
// fastest over the timed runs, so their sum undercuts any one run by a
// few per cent. The two kinds of runs take turns, so a slow spell falls
// on both: the ratio is applied whatever its size (on the 2-core VM, three profiles of each
// example gave 0.99-1.01 for cg, 1.03-1.06 for heat and 1.07-1.10 for
// matmul, 2026-11-25). 1 when the profile has no such run, or when MPI is
// more than plainMPIShare of the accounted time. bodyOwn, when positive,
// is the own time of the ranks' bodies and what they call: the part of
// the accounted time that the plain runs' body time measures (main's own
// time around mpi.Main, the runtime starting and stopping the ranks, is
// not in it; in a run of a few milliseconds that is a fifth of the time).
func plainScale(t profiler.Totals, bodyOwn float64) float64 {
	return upward(plainRatio(t, bodyOwn))
}

// upward is the compute scale for a plainRatio r (ok: measured).
func upward(r float64, ok bool) float64 {
	// Only upwards. A program without probes that runs faster than the
	// instrumented one's own times is more likely probe cost, or an
	// allocation-heavy phase's luck, in a few regions than a layout that
	// moves all compute: sparse's ran 12 % and 27 % faster in two profiles,
	// nearly all of it in the append loop that builds its matrix, its
	// product loop (the validated interval) as fast as profiled; scaled
	// down, the product was predicted 9 % and 25 % fast at P = 1
	// (2026-11-25).
	if ok && r > 1 {
		return r
	}
	return 1
}

// plainRatio is the plain runs' compute over the instrumented runs' own
// times (see plainScale); ok is false when the profile has no plain runs
// or when MPI is more than plainMPIShare of the accounted time.
func plainRatio(t profiler.Totals, bodyOwn float64) (float64, bool) {
	own := t.AccountedNs - t.MPINs
	if bodyOwn > 0 {
		own = bodyOwn
	}
	plain := t.PlainBodyNs - t.MPINs
	if t.PlainBodyNs <= 0 || own <= 0 || plain <= 0 || t.MPINs > plainMPIShare*(own+t.MPINs) {
		return 1, false
	}
	return plain / own, true
}

// plainMuchFaster is how much faster than the profile's own times the
// program without probes must run for the report's notes to say that the
// prediction keeps the slower times: more than the few per cent of noise
// (heat's, cg's and matmul's profiles gave 0.99-1.10), less than a
// disturbed profile (on the noisy AMD host of 2026-11-25 one of heat's
// profiles accounted 526 ms against 358 ms without probes, where three
// profiles minutes later gave ratios of 0.99-1.02). It was 0.2 until
// 2026-11-27, when a prefix sum whose instrumented loop ran 17 % slower
// in four profiles out of four (ratio 0.827, layout rather than probe
// cost) was predicted 21 % too slow at P = 1 with no note; sparse's
// legitimate 12 % is now noted too.
const plainMuchFaster = 0.1

// calibrateToPlain sets the oracle's compute scale from the profile and
// notes it, or notes a program without probes much faster than profiled.
func (o *Oracle) calibrateToPlain() {
	t := o.prof.Totals
	bodyOwn, _ := o.zones.rankBodiesOwn()
	r, measured := plainRatio(t, bodyOwn)
	o.calib = upward(r, measured)
	accounted := t.AccountedNs
	if bodyOwn > 0 {
		accounted = bodyOwn + t.MPINs
	}
	if math.Abs(o.calib-1) > plainNoted {
		o.notes[fmt.Sprintf("compute scaled by %.3g: the program built without probes ran its ranks' bodies in %.4g s, the profile's own times and MPI in them add up to %.4g s (its instrumented code is laid out differently)",
			o.calib, t.PlainBodyNs*1e-9, accounted*1e-9)] = true
	}
	if measured && r < 1-plainMuchFaster {
		o.notes[fmt.Sprintf("the program built without probes ran its ranks' bodies in %.4g s, %.0f%% faster than the profile's own times and MPI in them (%.4g s); the prediction keeps the profile's times and may be as much too slow: probe cost or one phase's luck in a few regions is likelier than faster compute everywhere, but a probe can also slow a tight loop by changing how the compiler lays it out; if the machine was busy while profiling, profile again",
			t.PlainBodyNs*1e-9, 100*(1-t.PlainBodyNs/accounted), accounted*1e-9)] = true
	}
}
