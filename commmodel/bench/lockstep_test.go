package bench

import (
	"fmt"
	"slices"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

func TestLockstepRanks(t *testing.T) {
	one := func(n int) []uint64 { return make([]uint64, n) }
	for _, tc := range []struct {
		hosts []uint64
		cores int
		want  []int
	}{
		{one(8), 2, []int{2, 4, 8}},               // goroutine backend on 2 cores
		{one(64), 16, []int{2, 4, 8, 16, 32, 64}}, // and on 16
		{one(48), 12, []int{2, 4, 8, 12, 24, 48}},
		{one(20), 16, []int{2, 4, 8, 16}}, // an MPI job of 20 on one host
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

// The lockstep suite reports per rank count a ring then an all-to-all
// row set; the machine file has each pattern's rows together, and loads.
func TestLockstepRowsByPattern(t *testing.T) {
	rep := &Report{Cores: 2}
	for i := range 4 {
		rep.Rows = append(rep.Rows, Row{Kind: "pingpong", Bytes: 1 << (4 * i), Stats: Stats{Valid: 5, Mean: 1e-6 * float64(i+1)}})
	}
	for _, k := range []int{2, 4} {
		for _, pattern := range []string{commmodel.PatternRing, commmodel.PatternAlltoall} {
			for _, c := range []float64{1e-5, 1e-3} {
				rep.Rows = append(rep.Rows, Row{Kind: "lockstep", Pattern: pattern, Ranks: k, Compute: c, Cores: 1.5})
			}
		}
	}
	m, err := buildMachine(DefaultOptions(), rep)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range m.Lockstep {
		got = append(got, fmt.Sprintf("%s/%d/%g", patternName(r.Pattern), r.Ranks, r.Compute))
	}
	want := []string{"ring/2/1e-05", "ring/2/0.001", "ring/4/1e-05", "ring/4/0.001",
		"alltoall/2/1e-05", "alltoall/2/0.001", "alltoall/4/1e-05", "alltoall/4/0.001"}
	if !slices.Equal(got, want) {
		t.Errorf("lockstep rows %v, want %v", got, want)
	}
	data, err := MarshalMachine(m, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := commmodel.Parse("m.yaml", data); err != nil {
		t.Errorf("the machine file does not load: %v", err)
	}
}

// A refetch row becomes the machine's refetch model, which loads; one
// that measured no extra time, or no cache size, gives none.
func TestRefetchRow(t *testing.T) {
	for _, tc := range []struct {
		row  Row
		want *commmodel.Refetch
	}{
		{Row{Kind: "refetch", Bytes: 262144, Ranks: 4, Cache: 2 << 20, Ratio: 37733708527.4}, &commmodel.Refetch{Bandwidth: 3.7734e10, Cache: 2 << 20}},
		{Row{Kind: "refetch", Bytes: 262144, Ranks: 4, Cache: 2 << 20}, nil},
		{Row{Kind: "refetch", Bytes: 262144, Ranks: 4, Ratio: 4e10}, nil},
	} {
		rep := &Report{Cores: 2}
		for i := range 4 {
			rep.Rows = append(rep.Rows, Row{Kind: "pingpong", Bytes: 1 << (4 * i), Stats: Stats{Valid: 5, Mean: 1e-6 * float64(i+1)}})
		}
		rep.Rows = append(rep.Rows, tc.row)
		m, err := buildMachine(DefaultOptions(), rep)
		if err != nil {
			t.Fatal(err)
		}
		if (m.Refetch == nil) != (tc.want == nil) || m.Refetch != nil && *m.Refetch != *tc.want {
			t.Errorf("row %+v: refetch %+v, want %+v", tc.row, m.Refetch, tc.want)
		}
		data, err := MarshalMachine(m, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := commmodel.Parse("m.yaml", data); err != nil {
			t.Errorf("the machine file does not load: %v", err)
		}
	}
}

// TestGoroutineBackendProtocol: over the goroutine backend the eager limit
// is the backend's rendezvous size, whatever the ping-pong fit, with no
// handshake messages; under an MPI library it is the fit's.
func TestGoroutineBackendProtocol(t *testing.T) {
	for _, tc := range []struct {
		mpi        bool
		eager      int
		handshakes int
	}{{false, mpi.GoroutineRendezvousBytes - 1, 0}, {true, 1 << 30, 0}} {
		rep := &Report{Cores: 2, MPI: tc.mpi}
		for i := range 4 {
			rep.Rows = append(rep.Rows, Row{Kind: "pingpong", Bytes: 1 << (4 * i), Stats: Stats{Valid: 5, Mean: 1e-6 * float64(i+1)}})
		}
		m, err := buildMachine(DefaultOptions(), rep)
		if err != nil {
			t.Fatal(err)
		}
		wait := mpi.GoroutineRendezvousWait.Seconds()
		if tc.mpi {
			wait = 0
		}
		if m.EagerLimit != tc.eager || m.HandshakeMessages != tc.handshakes || m.RendezvousWait != wait || (m.Provenance["protocol"] != "") == tc.mpi {
			t.Errorf("MPI %v: eager limit %d, %d handshake messages, protocol %q; want %d, %d",
				tc.mpi, m.EagerLimit, m.HandshakeMessages, m.Provenance["protocol"], tc.eager, tc.handshakes)
		}
	}
}
