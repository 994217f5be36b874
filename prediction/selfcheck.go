package prediction

import (
	"fmt"
	"math"

	"github.com/parpredict/parpredict/report"
)

// selfCheckTolerance is how far the simulation of the profiled run may
// stray from the run's measured time before the prediction says so.
const selfCheckTolerance = 0.25

// selfCheck compares the simulation of the profile's own configuration
// (one rank, the profile's arguments) with the time the profile measured
// for it, the ranks' bodies in the program built without probes (the time
// the compute is calibrated to): the model's reading of the profile
// should give back what was measured, and where it does not, part of the
// program's time was lost (a call the simulation could not follow) or
// counted twice, and every other configuration inherits the error. Over
// the examples and test programs the two agree within 13 %.
// "" when they agree, or when the sweep or the profile has no such
// configuration.
func (o *Oracle) selfCheck(points []report.Point) string {
	t := o.prof.Totals
	measured := t.PlainBodyNs
	if o.otherArgs || o.prof.Meta.NP != 1 || measured <= 0 {
		return ""
	}
	for _, p := range points {
		if p.P != 1 {
			continue
		}
		r := p.Time / (measured * 1e-9)
		if math.Abs(math.Log(r)) <= math.Log1p(selfCheckTolerance) {
			return ""
		}
		return fmt.Sprintf("the simulation of the profiled run itself (P = 1, the profile's arguments) takes %.4g s where the program built without probes ran its rank's body in %.4g s (%.0f%%): part of the program's time is not where the model charges it, and every prediction carries that error; if no other note explains it, profile again, and report it with the program",
			p.Time, measured*1e-9, 100*r)
	}
	return ""
}
