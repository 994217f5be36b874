package interpreter

import "testing"

// Cells written in order from 0 go to the dense slice, others to the map;
// reads must not depend on where a cell went.
func TestObjectCells(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []int64
	}{
		{"in order", []int64{0, 1, 2, 3}},
		{"reverse", []int64{3, 2, 1, 0}},
		{"gap then fill", []int64{0, 2, 1, 3}},
		{"negative and far", []int64{-1, 0, 1 << 40, 1}},
		{"rewrite", []int64{0, 1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newObject(intv(-7), nil)
			want := map[int64]int64{}
			for n, i := range tc.writes {
				o.set(i, intv(int64(100+n)))
				want[i] = int64(100 + n)
			}
			for _, i := range []int64{-1, 0, 1, 2, 3, 4, 1 << 40} {
				w, ok := want[i]
				if !ok {
					w = -7
				}
				if got := o.get(i); got.k != vInt || got.i != w {
					t.Errorf("cell %d = %v, want %d", i, got, w)
				}
			}
			c := copyValue(value{k: vArray, obj: o})
			c.obj.set(0, intv(42))
			if o.get(0).i == 42 && want[0] != 42 {
				t.Error("copy shares cells with the original")
			}
			o.havoc()
			if o.get(0).known() || o.get(3).known() {
				t.Error("havoc left known cells")
			}
		})
	}
}

func TestFloatAndComplexValues(t *testing.T) {
	for _, f := range []float64{0, -1.5, 3e300, 1e-300} {
		if v := floatv(f); v.fl() != f {
			t.Errorf("floatv(%g).fl() = %g", f, v.fl())
		}
	}
	c := complexv(1.5, -2)
	if c.fl() != 1.5 || c.im() != -2 {
		t.Errorf("complexv(1.5, -2) = %v", c)
	}
	// Map keys compare floats by value: -0 and 0 are one key.
	zero, _ := keyOf(floatv(0))
	negZero, _ := keyOf(value{k: vFloat, i: -1 << 63}) // the bits of -0
	if zero != negZero {
		t.Error("0 and -0 are different map keys")
	}
}
