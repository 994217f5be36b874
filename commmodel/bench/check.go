package bench

import (
	"errors"
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

// PingPongNow measures the one-way time of a message of each of sizes
// between two ranks of this process now, by the ping-pong suite's method
// (synchronised launches of round trips back to back, trimmed mean; half
// the round trip), in rounds
// separate runs, and returns each size's median over the rounds. It is
// the quick check that a machine file written by Calibrate some time ago
// still describes this computer's communication: a virtual machine's
// host can change its speed from one day to the next (docs/validation.md,
// 2026-11-26). One round is not enough: two goroutine ranks that the
// scheduler happens to keep on one thread exchange three times faster
// than two on different cores (0.6 against 1.8 us on the 2-core AMD VM,
// from one half-second run to the next), and the median of five rounds
// is the typical case. Under an MPI build it refuses: the check is for
// the goroutine backend that `predict validate` runs programs with.
func PingPongNow(sizes []int, rounds int) ([]float64, error) {
	job, err := jobSize()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if job > 0 {
		return nil, errors.New("bench: the ping-pong check needs the goroutine backend; this build is for an MPI library")
	}
	o := DefaultOptions()
	o.Sizes = sizes
	times := make([][]float64, len(sizes))
	for range max(rounds, 1) {
		var rows []Row
		err = mpi.Run(2, func(c *mpi.Comm) {
			k := o.sync(c)
			tb := BroadcastBound(c, k)
			r := pingPongSuite(c, k, tb, o, func(string) {})
			if c.Rank() == 0 {
				rows = r
			}
		})
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		for i, r := range rows {
			if r.Valid == 0 {
				return nil, fmt.Errorf("bench: no valid launch of the %d-byte ping-pong", r.Bytes)
			}
			times[i] = append(times[i], r.Mean/2)
		}
	}
	out := make([]float64, len(sizes))
	for i, ts := range times {
		slices.Sort(ts)
		out[i] = ts[len(ts)/2]
	}
	return out, nil
}
