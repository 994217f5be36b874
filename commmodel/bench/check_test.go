package bench

import "testing"

// TestPingPongNow measures a small and a large message in three rounds:
// both medians positive, the large one slower (1 MiB takes tens of
// microseconds to copy).
func TestPingPongNow(t *testing.T) {
	got, err := PingPongNow([]int{8, 1 << 20}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !(got[0] > 0) || !(got[1] > got[0]) {
		t.Errorf("one-way times %v s, want two positive times, the 1 MiB one longer", got)
	}
}
