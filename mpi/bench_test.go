package mpi_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

// BenchmarkPingPong measures one round trip of the goroutine backend per
// iteration; compare traced and untraced runs to see the cost of tracing.
func BenchmarkPingPong(b *testing.B) {
	needRanks(b, 2)
	for _, size := range []int{8, 1 << 10, 1 << 16, 1 << 20, 4 << 20} {
		for _, traced := range []bool{false, true} {
			b.Run(fmt.Sprintf("bytes=%d/trace=%v", size, traced), func(b *testing.B) {
				b.SetBytes(int64(2 * size))
				_, err := mpi.Launch(mpi.Options{NP: 2, Trace: traced}, func(c *mpi.Comm) {
					sameN(b, c)
					buf := make([]byte, size)
					peer := 1 - c.Rank()
					for range b.N {
						if c.Rank() == 0 {
							mpi.Send(c, buf, peer, 0)
							mpi.Recv(c, buf, peer, 0)
						} else {
							mpi.Recv(c, buf, peer, 0)
							mpi.Send(c, buf, peer, 0)
						}
					}
				})
				if err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// BenchmarkAllreduce measures an 8-element Allreduce at 8 ranks.
func BenchmarkAllreduce(b *testing.B) {
	needRanks(b, 8)
	err := mpi.Run(8, func(c *mpi.Comm) {
		sameN(b, c)
		in, out := make([]float64, 8), make([]float64, 8)
		for range b.N {
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
}

// sameN stops a benchmark whose ranks disagree on b.N: under MPI each
// process sizes its own runs, so MPI benchmarks need -benchtime=Nx.
func sameN(b *testing.B, c *mpi.Comm) {
	n, lo, hi := []int{b.N}, []int{0}, []int{0}
	mpi.Allreduce(c, n, lo, mpi.Min)
	mpi.Allreduce(c, n, hi, mpi.Max)
	if lo[0] != hi[0] {
		b.Fatalf("ranks run %d to %d iterations: give -benchtime=Nx under mpirun", lo[0], hi[0])
	}
}
