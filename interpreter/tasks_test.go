package interpreter

import "testing"

// Small messages carry their values: workers receive their task numbers
// and the stop mark as sent, and the count rank 0 broadcast, so the
// master-worker loop ends as it does for real. Each of the P-1 workers
// asks once per task it gets plus once to be told to stop; every request
// and reply is a Send and a Recv; and every rank calls Bcast once.
func TestMessagesCarrySmallData(t *testing.T) {
	for _, p := range []int{2, 3, 5} {
		run, sp := simulateTestdata(t, "./testdata/tasks", p)
		asks := int64(10 + (p - 1)) // every task, and one stop per worker
		if want := int64(p) + 4*asks; run.Ops != want {
			t.Errorf("P = %d: %d operations, want %d (%v)", p, run.Ops, want, sp.Assumptions())
		}
	}
}
