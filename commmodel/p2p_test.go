package commmodel

import (
	"errors"
	"math"
	"runtime"
	"testing"
)

func TestPlace(t *testing.T) {
	m := &Machine{Name: "t", Nodes: 4, SocketsPerNode: 2, CoresPerSocket: 2}
	for _, tc := range []struct {
		p, nodes, ppn      int
		order              Order
		node, socket, core []int
	}{
		{6, 2, 4, Block, []int{0, 0, 0, 0, 1, 1}, []int{0, 0, 1, 1, 0, 0}, []int{0, 1, 0, 1, 0, 1}},
		{6, 2, 4, RoundRobin, []int{0, 1, 0, 1, 0, 1}, []int{0, 0, 0, 0, 1, 1}, []int{0, 0, 1, 1, 0, 0}},
		{3, 3, 1, Block, []int{0, 1, 2}, []int{0, 0, 0}, []int{0, 0, 0}},
	} {
		pl, err := m.Place(tc.p, tc.nodes, tc.ppn, tc.order)
		if err != nil {
			t.Fatal(err)
		}
		for r := range tc.p {
			if pl.Node[r] != tc.node[r] || pl.Socket[r] != tc.socket[r] || pl.Core[r] != tc.core[r] {
				t.Errorf("%v P=%d: rank %d at (%d,%d,%d), want (%d,%d,%d)", tc.order, tc.p, r,
					pl.Node[r], pl.Socket[r], pl.Core[r], tc.node[r], tc.socket[r], tc.core[r])
			}
		}
	}
	for _, bad := range [][3]int{{0, 1, 1}, {4, 5, 1}, {4, 1, 5}, {9, 2, 4}} {
		if _, err := m.Place(bad[0], bad[1], bad[2], Block); err == nil {
			t.Errorf("Place%v: no error", bad)
		}
	}
}

func TestMessageCost(t *testing.T) {
	m, err := Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := m.Place(24, 2, 12, Block)
	for _, tc := range []struct {
		src, dst, n int
		level       Level
		rendezvous  bool
		channels    int
	}{
		{0, 0, 100, Self, false, 0},
		{0, 1, 100, Socket, false, 1},
		{0, 6, 100, Node, false, 1},
		{0, 12, 100, Network, false, 2},
		{0, 12, 12288, Network, false, 2},
		{0, 12, 12289, Network, true, 2},
	} {
		c := m.Message(pl, tc.src, tc.dst, tc.n)
		if c.Level != tc.level || c.Rendezvous != tc.rendezvous || len(c.Channels) != tc.channels {
			t.Errorf("%d->%d %d B: %v", tc.src, tc.dst, tc.n, c)
		}
	}
	c := m.Message(pl, 0, 12, 1<<20)
	want := 0.25e-6 + 4*1e-6 + float64(1<<20)/4e9 + 0.25e-6 // o_s + L(1+3 handshakes) + m/B + o_r
	if math.Abs(c.Total()-want) > 1e-15 {
		t.Errorf("1 MiB across nodes: %.6g s, want %.6g s", c.Total(), want)
	}
}

func TestRatio(t *testing.T) {
	m, err := Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k     ChannelKind
		cf, n int
		want  float64
	}{
		{Memory, 1, 1 << 20, 1},
		{Memory, 2, 1 << 20, 2.48},                      // below the first row: the first row
		{Memory, 2, 6 << 20, (2.48 + 1.75) / 2},         // halfway between 4 and 8 MB
		{Memory, 5, 4 << 20, 6.05 + (6.05 - 4.42)},      // beyond the table: extended linearly
		{Adapter, 8, 1 << 30, 7.7},                      // above the last row: the last row
		{Adapter, 3, (16 + 128) << 19, (2.8 + 2.9) / 2}, // between 16 and 128 MB
	} {
		if got := m.Ratio(tc.k, tc.cf, tc.n); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%v cf=%d n=%d: %v, want %v", tc.k, tc.cf, tc.n, got, tc.want)
		}
	}
	if got := (&Machine{}).Ratio(Adapter, 3, 10); got != 3 {
		t.Errorf("fair sharing: %v, want 3", got)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"4096": 4096, "64KiB": 65536, "1MiB": 1 << 20, "1MB": 1000000, "2k": 2048, "0": 0, "1.5KiB": 1536} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "lots", "-1", "1TiB0"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q): no error", bad)
		}
	}
}

func TestSelectRules(t *testing.T) {
	for _, tc := range []struct {
		rules string
		op    Op
		p, n  int
		want  Algorithm
		elem  int // 0: DefaultElemSize
	}{
		{RulesOpenMPI, Alltoall, 8, 1 << 20, Linear, 0},
		{RulesOpenMPI, Alltoall, 2, 1 << 20, Pairwise, 0},
		{RulesOpenMPI, Alltoall, 48, 256, Bruck, 0},
		{RulesOpenMPI, Allreduce, 8, 8, RecursiveDoubling, 0},
		// Open MPI 4.1's table says segmented ring from 16 to 63 ranks
		// below 128 bytes; its ring runs recursive doubling with fewer
		// elements than ranks.
		{RulesOpenMPI, Allreduce, 16, 8, RecursiveDoubling, 0},
		{RulesOpenMPI, Allreduce, 63, 120, RecursiveDoubling, 0},
		{RulesOpenMPI, Allreduce, 40, 120, Ring, 1},
		{RulesOpenMPI, Allreduce, 16, 32, Ring, 1},
		{RulesOpenMPI, Allreduce, 48, 256, ReduceBcast, 16}, // Rabenseifner, 16 elements < 32
		{RulesOpenMPI, Allreduce, 48, 256, Rabenseifner, 8},
		{RulesOpenMPI, Reduce, 2, 4, Linear, 0}, // Rabenseifner, no element
		{RulesOpenMPI, Allreduce, 16, 1 << 20, Rabenseifner, 0},
		{RulesOpenMPI, Barrier, 100, 0, Dissemination, 0},
		{RulesMPICH, Bcast, 16, 1024, Binomial, 0},
		{RulesMPICH, Bcast, 16, 65536, ScatterAllgather, 0},
		{RulesMPICH, Bcast, 12, 65536, ScatterRing, 0},
		{RulesMPICH, Alltoall, 16, 256, Bruck, 0},
		{RulesMPICH, Alltoall, 16, 257, Linear, 0},
		{RulesMPICH, Alltoall, 16, 32769, Pairwise, 0},
		{RulesMPICH, Allreduce, 8, 2048, RecursiveDoubling, 0},
		{RulesMPICH, Allreduce, 8, 2049, Rabenseifner, 0},
		{RulesMPICH, Allreduce, 512, 4096, RecursiveDoubling, 16}, // 256 elements < 512
		{RulesMPICH, Allreduce, 512, 4096, Rabenseifner, 4},
		{RulesMPICH, Allgather, 6, 1024, Bruck, 0},
		{RulesGoroutine, Allreduce, 6, 8, RecursiveDoubling, 0},
		{RulesGoroutine, Allreduce, 16, 1 << 20, RecursiveDoubling, 0},
		{RulesGoroutine, Barrier, 8, 0, Linear, 0},
		{RulesGoroutine, Bcast, 5, 1 << 20, Binomial, 0},
		{RulesGoroutine, Allgather, 6, 1024, Ring, 0},
		{RulesGoroutine, Alltoall, 48, 256, Linear, 0},
	} {
		if got := SelectBy(tc.rules, tc.op, tc.p, tc.n, tc.elem); got != tc.want {
			t.Errorf("%s %v P=%d n=%d elem=%d: %v, want %v", tc.rules, tc.op, tc.p, tc.n, tc.elem, got, tc.want)
		}
	}
	m := &Machine{Collectives: CollectiveConfig{Rules: RulesOpenMPI, Force: map[string]string{"Allgather": "recursive-doubling"}}}
	if got := m.Select(Allgather, 6, 8, 0); got != Bruck {
		t.Errorf("forced recursive doubling on 6 ranks: %v, want the Bruck fallback", got)
	}
	m.Collectives.Force = map[string]string{"Allreduce": "ring"}
	if got := m.Select(Allreduce, 32, 8, 0); got != RecursiveDoubling {
		t.Errorf("forced ring Allreduce of one element on 32 ranks: %v, want Open MPI's recursive doubling", got)
	}
}

func TestGenerateRefusesHugeQuadraticSchedules(t *testing.T) {
	if _, err := Generate(Alltoall, Pairwise, 5000, 8, 0, Options{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("5000-rank all-to-all: %v, want ErrTooLarge", err)
	}
	if _, err := Generate(Bcast, Binomial, 5000, 8, 0, Options{}); err != nil {
		t.Errorf("5000-rank binomial broadcast: %v", err)
	}
}

// TestDisseminationBarrierMemory: the dissemination barrier's block lists
// share one array (rank r has heard from a window of ranks), so a 16,384-
// rank schedule takes megabytes; with a sorted union per rank and round it
// took 4.3 GB. Allocated bytes are counted, not timed.
func TestDisseminationBarrierMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 16,384-rank schedule")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Generate(Barrier, Dissemination, 1<<14, 0, 0, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 256 {
		t.Errorf("the 16,384-rank dissemination barrier allocated %.0f MB, want under 256", mb)
	}
	if got := len(s.Ranks[0]); got != 14 {
		t.Errorf("rank 0 has %d steps, want 14 rounds", got)
	}
}
