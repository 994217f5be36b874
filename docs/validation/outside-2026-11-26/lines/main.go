package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	path := flag.String("data", "data.txt", "input")
	flag.Parse()
	data, err := os.ReadFile(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		sum := 0
		for i := c.Rank(); i < len(lines); i += c.Size() {
			for _, f := range strings.Fields(lines[i]) {
				v, _ := strconv.Atoi(f)
				sum += v
			}
		}
		out := []int{0}
		mpi.Reduce(c, []int{sum}, out, mpi.Sum, 0)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
