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
	own := t.AccountedNs - t.MPINs
	if bodyOwn > 0 {
		own = bodyOwn
	}
	plain := t.PlainBodyNs - t.MPINs
	if t.PlainBodyNs <= 0 || own <= 0 || plain <= 0 || t.MPINs > plainMPIShare*(own+t.MPINs) {
		return 1
	}
	// Only upwards. A program without probes that runs faster than the
	// instrumented one's own times is more likely probe cost, or an
	// allocation-heavy phase's luck, in a few regions than a layout that
	// moves all compute: sparse's ran 12 % and 27 % faster in two profiles,
	// nearly all of it in the append loop that builds its matrix, its
	// product loop (the validated interval) as fast as profiled; scaled
	// down, the product was predicted 9 % and 25 % fast at P = 1
	// (2026-11-25).
	if s := plain / own; s > 1 {
		return s
	}
	return 1
}

// calibrateToPlain sets the oracle's compute scale from the profile and
// notes it.
func (o *Oracle) calibrateToPlain() {
	t := o.prof.Totals
	bodyOwn, _ := o.zones.rankBodiesOwn()
	o.calib = plainScale(t, bodyOwn)
	if math.Abs(o.calib-1) > plainNoted {
		accounted := t.AccountedNs
		if bodyOwn > 0 {
			accounted = bodyOwn + t.MPINs
		}
		o.notes[fmt.Sprintf("compute scaled by %.3g: the program built without probes ran its ranks' bodies in %.4g s, the profile's own times and MPI in them add up to %.4g s (its instrumented code is laid out differently)",
			o.calib, t.PlainBodyNs*1e-9, accounted*1e-9)] = true
	}
}
