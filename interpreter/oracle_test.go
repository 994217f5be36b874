package interpreter

import "testing"

// A profiled frequency near 0 or 1 keeps the digits that tell it from
// never and always.
func TestFrequency(t *testing.T) {
	for p, want := range map[float64]string{0.5: "0.5", 2130.0 / 2131: "0.9995", 1: "1", 0: "0", 1e-5: "1e-05", 0.12345: "0.123"} {
		if got := frequency(p); got != want {
			t.Errorf("frequency(%v) = %q, want %q", p, got, want)
		}
	}
}
