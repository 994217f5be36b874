// Command pingpong measures point-to-point latency and bandwidth between
// ranks 0 and 1: for each message size, doubling from -min to -max bytes,
// rank 0 sends a message to rank 1 and rank 1 sends it back, -reps times
// after one untimed warm-up round trip. Other ranks idle.
//
//	go run ./examples/pingpong -np 2
//	go run ./examples/pingpong -np 2 -reps 1000 -max 65536
//
// Rank 0 prints one row per size: the one-way latency (half the mean round
// trip, in microseconds) and the bandwidth (size / latency, in MB/s,
// 1 MB = 10^6 bytes). Both ranks check that every message arrived intact.
// The last line is "elapsed: <seconds> s", from a Barrier before the first
// size to the end of the last. With one rank there is no partner: it prints
// a note and the (empty) elapsed time, measures nothing, and exits 0.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// params are the command-line settings.
type params struct {
	minSize, maxSize, reps int
}

func main() {
	minSize := flag.Int("min", 1, "smallest message size in bytes")
	maxSize := flag.Int("max", 4<<20, "largest message size in bytes")
	reps := flag.Int("reps", 100, "timed round trips per size")
	flag.Parse()
	var bad string
	switch {
	case *minSize < 1:
		bad = fmt.Sprintf("-min must be at least 1, got %d", *minSize)
	case *maxSize < *minSize:
		bad = fmt.Sprintf("-max (%d) must be at least -min (%d)", *maxSize, *minSize)
	case *reps < 1:
		bad = fmt.Sprintf("-reps must be at least 1, got %d", *reps)
	}
	if bad != "" {
		fmt.Fprintf(os.Stderr, "pingpong: %s\n", bad)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, params{minSize: *minSize, maxSize: *maxSize, reps: *reps}) })
}

// result is the measurement of one message size.
type result struct {
	size    int
	latency float64 // one-way, seconds
}

// run is one rank's part of the program.
func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	buf := make([]byte, p.maxSize)
	echo := make([]byte, p.maxSize)
	var results []result

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	if size >= 2 && rank < 2 {
		for s := p.minSize; s <= p.maxSize; s *= 2 {
			if rank == 0 {
				fillPattern(buf[:s])
			}
			pingpong(c, buf[:s], echo[:s], 1) // warm-up: first use of this size
			start := mpi.Wtime()
			pingpong(c, buf[:s], echo[:s], p.reps)
			lat := (mpi.Wtime() - start) / float64(2*p.reps)
			if bad := verify(rank, buf[:s], echo[:s]); bad >= 0 {
				fmt.Fprintf(os.Stderr, "pingpong: rank %d: message of %d bytes corrupted at byte %d\n", rank, s, bad)
				c.Abort(1)
			}
			results = append(results, result{size: s, latency: lat})
			if s > p.maxSize/2 {
				break // doubling again would overflow or pass -max
			}
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	if size < 2 {
		fmt.Println("pingpong: needs at least 2 ranks (run with -np 2); nothing measured")
		fmt.Printf("elapsed: %.6f s\n", elapsed)
		return
	}
	fmt.Printf("pingpong: ranks 0 and 1 of %d, %d round trips per size\n", size, p.reps)
	fmt.Printf("%12s %14s %16s\n", "size(B)", "latency(us)", "bandwidth(MB/s)")
	for _, r := range results {
		fmt.Printf("%12d %14.3f %16.2f\n", r.size, r.latency*1e6, float64(r.size)/r.latency/1e6)
	}
	fmt.Println("check: every message arrived intact")
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}
