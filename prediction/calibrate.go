package prediction

import (
	"fmt"

	"github.com/parpredict/parpredict/profiler"
)

// plainTolerance is how far the program built without probes may run from
// the instrumented profile's own times before compute is scaled to it:
// within it the difference is as likely the two runs' noise (on the
// 2-core VM, transpose's differed by 18.6 % and 28.5 % in two profiles
// whose plain runs came minutes after the timed ones; the runs now take
// turns). matmul's code layout made 50-60 %.
const plainTolerance = 0.15

// plainScale is the factor that takes the profile's compute times to those
// of the binary the user runs: the ranks' body time of the program built
// without probes, less the MPI time, over the own times the instrumented
// runs accounted. A probe anywhere in a function can change how the
// compiler lays out its loops, and a tight loop's speed can follow its
// alignment by tens of percent (docs/profiler.md); no subtraction of probe
// costs undoes that. 1 when the profile has no such run, or when it is
// within plainTolerance. bodyOwn, when positive, is the own time of the
// ranks' bodies and what they call: the part of the accounted time that
// the plain runs' body time measures (main's own time around mpi.Main,
// the runtime starting and stopping the ranks, is not in it; in a run of
// a few milliseconds that is a fifth of the time).
func plainScale(t profiler.Totals, bodyOwn float64) float64 {
	own := t.AccountedNs - t.MPINs
	if bodyOwn > 0 {
		own = bodyOwn
	}
	plain := t.PlainBodyNs - t.MPINs
	if t.PlainBodyNs <= 0 || own <= 0 || plain <= 0 {
		return 1
	}
	s := plain / own
	if s >= 1-plainTolerance && s <= 1+plainTolerance {
		return 1
	}
	return s
}

// calibrateToPlain sets the oracle's compute scale from the profile and
// notes it.
func (o *Oracle) calibrateToPlain() {
	t := o.prof.Totals
	bodyOwn, _ := o.zones.rankBodiesOwn()
	o.calib = plainScale(t, bodyOwn)
	if o.calib != 1 {
		accounted := t.AccountedNs
		if bodyOwn > 0 {
			accounted = bodyOwn + t.MPINs
		}
		o.notes[fmt.Sprintf("compute scaled by %.3g: the program built without probes ran its ranks' bodies in %.4g s, the profile's own times and MPI in them add up to %.4g s (its instrumented code is laid out differently)",
			o.calib, t.PlainBodyNs*1e-9, accounted*1e-9)] = true
	}
}
