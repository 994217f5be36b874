package prediction

import (
	"fmt"
	"math"
)

// Where the simulation of the profiled run may stray from the run's
// measured compute before the prediction says so: by a quarter, and by a
// millisecond (a program of microseconds strays by more than a quarter
// on noise alone: page faults, the runtime starting).
const (
	selfCheckTolerance = 0.25
	selfCheckFloor     = 1e-3
)

// selfCheck compares the compute of the simulation of the profile's own
// configuration (one rank, the profile's arguments), simCompute seconds,
// with what the profile measured for it: the ranks' bodies in the program
// built without probes, less their MPI time (the time the compute is
// calibrated to; communication is the predicted machine's, not this
// one's). The model's reading of the profile should give back what was
// measured, and where it does not, part of the program's time was lost (a
// call the simulation could not follow) or counted twice, and every other
// configuration inherits the error. Over the examples and the test
// programs of prediction/testdata the two agree within 13 %. "" when they
// agree, or when the profile has no such measurement (several ranks,
// another launcher, MPI most of the time, other arguments).
func (o *Oracle) selfCheck(simCompute float64) string {
	t := o.prof.Totals
	if o.otherArgs || o.prof.Meta.NP != 1 || t.PlainBodyNs <= 0 || t.MPINs > t.AccountedNs/2 {
		return ""
	}
	measured := (t.PlainBodyNs - t.MPINs) * 1e-9
	if measured <= 0 || simCompute <= 0 {
		return ""
	}
	r := simCompute / measured
	if math.Abs(math.Log(r)) <= math.Log1p(selfCheckTolerance) || math.Abs(simCompute-measured) <= selfCheckFloor {
		return ""
	}
	return fmt.Sprintf("the simulation of the profiled run itself (P = 1, the profile's arguments) computes for %.4g s where the program built without probes computed for %.4g s (%.0f%%): part of the program's time is not where the model charges it, and every prediction carries that error; if no other note explains it, profile again, and report it with the program",
		simCompute, measured, 100*r)
}
