// Command wave: a 1-D wave equation, parameters read by rank 0 from a file.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

func readParams(path string) (n, steps int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		v, err := strconv.Atoi(fields[1])
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %v", path, err)
		}
		switch fields[0] {
		case "n":
			n = v
		case "steps":
			steps = v
		}
	}
	return n, steps, sc.Err()
}

func main() {
	path := flag.String("params", "params.txt", "parameter file")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := make([]int, 2)
		if c.Rank() == 0 {
			n, steps, err := readParams(*path)
			if err != nil {
				log.Fatal(err)
			}
			p[0], p[1] = n, steps
		}
		mpi.Bcast(c, p, 0)
		run(c, p[0], p[1])
	})
}

func run(c *mpi.Comm, n, steps int) {
	me, size := c.Rank(), c.Size()
	lo := me * n / size
	hi := (me + 1) * n / size
	m := hi - lo
	prev := make([]float64, m+2)
	cur := make([]float64, m+2)
	next := make([]float64, m+2)
	for i := 1; i <= m; i++ {
		x := float64(lo+i-1) / float64(n)
		if x > 0.4 && x < 0.6 {
			cur[i] = 1
			prev[i] = 1
		}
	}
	left, right := me-1, me+1
	t0 := time.Now()
	c.BeginInterval(1)
	for s := 0; s < steps; s++ {
		var reqs []*mpi.Request
		if left >= 0 {
			reqs = append(reqs, mpi.Irecv(c, cur[0:1], left, 0), mpi.Isend(c, cur[1:2], left, 1))
		}
		if right < size {
			reqs = append(reqs, mpi.Irecv(c, cur[m+1:m+2], right, 1), mpi.Isend(c, cur[m:m+1], right, 0))
		}
		mpi.Waitall(reqs...)
		for i := 1; i <= m; i++ {
			next[i] = 2*cur[i] - prev[i] + 0.25*(cur[i-1]-2*cur[i]+cur[i+1])
		}
		prev, cur, next = cur, next, prev
	}
	c.EndInterval(1)
	if me == 0 {
		log.Printf("%d points, %d steps in %v", n, steps, time.Since(t0))
	}
}
