package prediction

import (
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// TestMethodFieldWrites: methods that append to a field of their
// receiver or store into a field's elements, called in reduced loops,
// leave the receiver's other fields known (testdata/methodfield): its
// communicator, for the Allreduce after them, and the length of its data,
// a rank's share, for the loops' counts. The calls had made the whole
// receiver unknown, and the prediction failed.
func TestMethodFieldWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "methodfield", nil)
	t1 := intervalAlone(t, mp, oracle, m, 1, nil)
	t2 := intervalAlone(t, mp, oracle, m, 2, nil)
	if r := t2 / t1; r < 0.4 || r > 0.62 {
		t.Errorf("P = 1: %.3g s, P = 2: %.3g s (ratio %.2f), want about 0.5", t1, t2, r)
	}
}

// TestShortConstantLoopsRun: a loop of two iterations filling the
// neighbours of a ring (testdata/ringtable) is run, not skipped, so the
// ranks the exchanges name are known; skipped, it left them unknown and
// the prediction failed.
func TestShortConstantLoopsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "ringtable", nil)
	run, _, err := simulate(mp, oracle, m, 4, 4, 1, commmodel.Block, nil, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Messages < 400 {
		t.Errorf("%d messages, want the 100 exchanges of each of 4 ranks", run.Messages)
	}
}

// TestGridSearchRuns predicts griddims: its process grid is searched in
// a function given the size as a parameter and returned as an array, in
// one loop or in two nested ones. The search was a reduced nest (its
// trip count has no Size symbol, only the parameter), the grid became
// unknown, and every rank was costed the whole grid's sweep.
func TestGridSearchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, args := range [][]string{nil, {"-three"}} {
		mp, oracle, m := prepareTestdata(t, "griddims", args)
		wantQuarterAtFour(t, mp, oracle, m, args)
	}
}

// TestArrayElementBounds predicts arraybound, whose loops run to
// elements of an array field (y < b.size[1]): such a bound was taken to
// change in the loop, the loops were run step by step, and with the
// bound read in the loop's condition the count was not known at the
// nest's entry either.
func TestArrayElementBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "arraybound", nil)
	wantQuarterAtFour(t, mp, oracle, m, nil)
}

// TestElementStoresKeepFields: a reduced loop that appends to buckets of
// one slice field (s.out[o] = append(s.out[o], v)) and stores into the
// elements of another (s.dist[i] = 1) leaves the struct's other fields
// known (testdata/elemstore): an element store was taken to possibly
// write any field of its type, so the path to s.dist, and then all of
// s, its communicator included, were lost.
func TestElementStoresKeepFields(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "elemstore", nil)
	for _, p := range []int{1, 2} {
		if _, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, nil, interpreter.Options{}); err != nil {
			t.Fatalf("P = %d: %v", p, err)
		}
	}
}

// TestArrayFieldSweepKeepsSizes predicts arrayfield: a reduced nest that
// writes the slices held in an array field of a struct (g.tmp[k][j])
// made the whole struct unknown, its rows with it, and every later nest
// over g.rows was costed at the profile's count at every P.
func TestArrayFieldSweepKeepsSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "arrayfield", nil)
	wantQuarterAtFour(t, mp, oracle, m, nil)
}
