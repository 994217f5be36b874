package prediction

import (
	"testing"
)

// TestUnbalancedNestCalledOverAColumn predicts colupdate, whose
// unbalanced row loop is entered over every column and over one column
// of the same rows: the per-iteration vector says how the rows' costs
// differ, not what an entry costs, since it is each ordinal's fastest
// over entries (the one-column ones). Costed from the vector alone, a
// one-column entry cost as much as a whole band's, and the column form
// was predicted nearly three times the whole form's time at P > 1.
func TestUnbalancedNestCalledOverAColumn(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	times := map[string][]float64{}
	for _, form := range []string{"whole", "column"} {
		args := []string{"-form", form}
		mp, oracle, m := prepareTestdata(t, "colupdate", args)
		if form == "column" {
			unbalanced := false
			for _, r := range oracle.prof.Regions {
				if r.Func == "main.(*band).update" && r.Imbalance != nil && len(r.Imbalance.IterNs) > 0 {
					unbalanced = !r.Imbalance.Balanced
				}
			}
			if !unbalanced {
				t.Fatal("the profile does not hold update's row loop as unbalanced: nothing to test")
			}
		}
		for _, p := range []int{1, 2, 4} {
			times[form] = append(times[form], intervalAlone(t, mp, oracle, m, p, args))
			t.Logf("%s P=%d %g", form, p, times[form][len(times[form])-1])
		}
	}
	for k, p := range []int{1, 2, 4} {
		whole, column := times["whole"][k], times["column"][k]
		if r := column / whole; r < 0.9 || r > 1.15 {
			t.Errorf("P = %d: column form %.3g s, whole form %.3g s (ratio %.2f), want about 1", p, column, whole, r)
		}
	}
}
