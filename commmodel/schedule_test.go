package commmodel

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// hockneyMachine is P single-core nodes with alpha + m*beta messages, no
// overheads, no rendezvous: the setting of the closed forms.
func hockneyMachine(alpha, beta, gamma float64) *Machine {
	lp := LevelParams{Latency: alpha, Bandwidth: 1 / beta}
	return &Machine{Name: "hockney", Nodes: 64, SocketsPerNode: 1, CoresPerSocket: 1,
		Levels: Levels{Socket: lp, Node: lp, Network: lp}, EagerLimit: math.MaxInt32,
		HandshakeMessages: 3, ReduceTimePerByte: gamma, Collectives: CollectiveConfig{Rules: RulesOpenMPI}}
}

func TestSchedulesDeliverEveryBlock(t *testing.T) {
	for _, op := range Ops() {
		for _, alg := range Algorithms(op) {
			if alg == Leaders {
				continue
			}
			t.Run(fmt.Sprintf("%v/%v", op, alg), func(t *testing.T) {
				for p := 1; p <= 64; p++ {
					for _, root := range []int{0, p / 3, p - 1} {
						s, err := Generate(op, alg, p, 4096, root, Options{})
						if errors.Is(err, ErrUnsupported) && !isPow2(p) {
							continue
						}
						if err != nil {
							t.Fatalf("P=%d root=%d: %v", p, root, err)
						}
						if err := Verify(s); err != nil {
							t.Fatalf("P=%d root=%d: %v", p, root, err)
						}
					}
				}
			})
		}
	}
}

func TestLeaderAlltoallDelivers(t *testing.T) {
	m := hockneyMachine(1e-6, 1e-9, 0)
	m.Nodes, m.SocketsPerNode, m.CoresPerSocket = 8, 2, 4
	for _, tc := range []struct{ nodes, ppn int }{{1, 1}, {2, 1}, {1, 8}, {2, 4}, {4, 2}, {3, 6}, {8, 8}, {5, 4}} {
		for d := 1; d <= tc.ppn; d++ {
			if tc.ppn%d != 0 {
				continue
			}
			for _, order := range []Order{Block, RoundRobin} {
				pl, err := m.Place(tc.nodes*tc.ppn, tc.nodes, tc.ppn, order)
				if err != nil {
					t.Fatal(err)
				}
				s, err := Generate(Alltoall, Leaders, pl.P, 64, 0, Options{Placement: pl, Leaders: d})
				if err != nil {
					t.Fatalf("%dx%d d=%d: %v", tc.nodes, tc.ppn, d, err)
				}
				if err := Verify(s); err != nil {
					t.Fatalf("%dx%d d=%d %v: %v", tc.nodes, tc.ppn, d, order, err)
				}
				if _, err := m.Simulate(s, pl, SimOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if _, err := Generate(Alltoall, Leaders, 8, 64, 0, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("leaders without a placement: got %v, want ErrUnsupported", err)
	}
}

func TestUncontendedTimeMatchesClosedForm(t *testing.T) {
	h := Hockney{Alpha: 2e-6, Beta: 1e-9, Gamma: 3e-10}
	m := hockneyMachine(h.Alpha, h.Beta, h.Gamma)
	exactCases := 0
	for _, op := range Ops() {
		for _, alg := range Algorithms(op) {
			if alg == Leaders {
				continue
			}
			for p := 1; p <= 64; p++ {
				n := 1024
				if op == Bcast || op == Reduce || op == Allreduce {
					n = p * pof2floor(p) * 16 // chunks divide evenly
				}
				s, err := Generate(op, alg, p, n, 0, Options{})
				if errors.Is(err, ErrUnsupported) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				pl, err := m.Place(p, p, 1, Block)
				if err != nil {
					t.Fatal(err)
				}
				res, err := m.Simulate(s, pl, SimOptions{NoContention: true})
				if err != nil {
					t.Fatal(err)
				}
				want, exact, ok := h.ClosedForm(op, alg, p, n)
				if !ok {
					t.Fatalf("%v/%v: no closed form", op, alg)
				}
				if !exact {
					// The approximations still bound the simulated time
					// within a factor of two either way.
					if res.Time > 2*want || want > 2*res.Time {
						t.Errorf("%v/%v P=%d: simulated %.4g s, approximate closed form %.4g s", op, alg, p, res.Time, want)
					}
					continue
				}
				exactCases++
				if math.Abs(res.Time-want) > 1e-9*want+1e-15 {
					t.Errorf("%v/%v P=%d n=%d: simulated %.9g s, closed form %.9g s", op, alg, p, n, res.Time, want)
				}
			}
		}
	}
	t.Logf("%d exact comparisons", exactCases)
	if exactCases < 500 {
		t.Errorf("only %d exact comparisons", exactCases)
	}
}

// MPIPerf's example (SEEDS.md 2): timing k back-to-back linear broadcasts
// makes rank i report T_i = ((n-1)(k-1)+i)(alpha+m*beta)/k instead of its
// true i(alpha+m*beta).
func TestNaiveLoopSystematicError(t *testing.T) {
	alpha, beta := 5e-6, 1e-9
	m := hockneyMachine(alpha, beta, 0)
	for _, tc := range []struct{ n, k, bytes int }{{8, 10, 1 << 16}, {5, 3, 100}, {16, 1, 1024}, {2, 7, 0}} {
		s, err := Generate(Bcast, Linear, tc.n, tc.bytes, 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := m.Place(tc.n, tc.n, 1, Block)
		res, err := m.Simulate(Repeat(s, tc.k), pl, SimOptions{NoContention: true})
		if err != nil {
			t.Fatal(err)
		}
		c := alpha + float64(tc.bytes)*beta
		n, k := float64(tc.n), float64(tc.k)
		for i, fin := range res.Finish {
			got := fin / k
			want := float64(tc.n-1) * c
			if i > 0 {
				want = ((n-1)*(k-1) + float64(i)) * c / k
			}
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("n=%d k=%d rank %d: measured %.6g, formula %.6g", tc.n, tc.k, i, got, want)
			}
		}
	}
}

// The linear Scatter's root sends with blocking sends in rank order after
// itself (Open MPI's basic linear scatter, the goroutine backend's): one
// send a step, so a block leaves only when the one before it is done.
func TestLinearScatterSendsInTurn(t *testing.T) {
	const p, root = 5, 2
	s, err := Generate(Scatter, Linear, p, 4096, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	steps := s.Ranks[root]
	if len(steps) != p-1 {
		t.Fatalf("root has %d steps, want %d: %+v", len(steps), p-1, steps)
	}
	for i, st := range steps {
		want := (root + 1 + i) % p
		if len(st.Sends) != 1 || len(st.Recvs) != 0 || st.Sends[0].Peer != want {
			t.Errorf("root's step %d = %+v, want one send to %d", i, st, want)
		}
	}
	for r := range p {
		if r != root && (len(s.Ranks[r]) != 1 || len(s.Ranks[r][0].Recvs) != 1) {
			t.Errorf("rank %d: %+v, want one receive", r, s.Ranks[r])
		}
	}
}
