package bench

import (
	"slices"
	"testing"
)

func TestLockstepRanks(t *testing.T) {
	one := func(n int) []uint64 { return make([]uint64, n) }
	for _, tc := range []struct {
		hosts []uint64
		cores int
		want  []int
	}{
		{one(8), 2, []int{2, 4, 8}},         // goroutine backend on 2 cores
		{one(64), 16, []int{2, 16, 32, 64}}, // and on 16
		{one(20), 16, []int{2, 16}},         // an MPI job of 20 on one host
		{[]uint64{0, 0, 0, 1, 1, 1}, 2, []int{2}},
		{one(1), 2, nil},
	} {
		if got := lockstepRanks(tc.hosts, tc.cores); !slices.Equal(got, tc.want) {
			t.Errorf("lockstepRanks(%d hosts, %d cores) = %v, want %v", len(tc.hosts), tc.cores, got, tc.want)
		}
	}
}

func TestOneWay(t *testing.T) {
	pp := func(bytes int, rtt float64) Row {
		return Row{Kind: "pingpong", Bytes: bytes, Stats: Stats{Valid: 5, Mean: rtt}}
	}
	rows := []Row{pp(0, 2e-6), pp(8, 3e-6), {Kind: "collective", Bytes: 64, Stats: Stats{Valid: 5, Mean: 1}}, pp(256, 5e-6), pp(64, 4e-6)}
	for _, tc := range []struct {
		rows  []Row
		bytes int
		want  float64
	}{
		{rows, 64, 2e-6},
		{rows, 100, 2e-6},
		{rows, 7, 1e-6},
		{rows[3:4], 64, 2.5e-6}, // only larger rows
		{rows[2:3], 64, 0},      // no ping-pong row
	} {
		if got := oneWay(tc.rows, tc.bytes); got != tc.want {
			t.Errorf("oneWay(%d bytes) = %g, want %g", tc.bytes, got, tc.want)
		}
	}
}
