package commmodel

import "testing"

// BenchmarkSimulate measures replaying a 64-rank collective with
// contention on the ib-qdr preset (8 nodes x 8 ranks).
func BenchmarkSimulate(b *testing.B) {
	m, err := Load("ib-qdr")
	if err != nil {
		b.Fatal(err)
	}
	pl, err := m.Place(64, 8, 8, Block)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		op   Op
		alg  Algorithm
		n    int
	}{{"alltoall-pairwise-1MiB", Alltoall, Pairwise, 1 << 20}, {"allreduce-rabenseifner-1MiB", Allreduce, Rabenseifner, 1 << 20}, {"bcast-binomial-4KiB", Bcast, Binomial, 4096}} {
		s, err := Generate(tc.op, tc.alg, 64, tc.n, 0, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := m.Simulate(s, pl, SimOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGenerateAlltoallBruck64(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(Alltoall, Bruck, 64, 64, 0, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
