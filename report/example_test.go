package report_test

import (
	"fmt"
	"os"

	"github.com/parpredict/parpredict/report"
)

// A command turns the interpreter's predicted times into the speedup table.
func ExampleSpeedup() {
	serial := 0.8
	sweep := report.Sweep{Program: "./examples/heat", Machine: "local", Args: []string{"-n", "500"},
		Points: []report.Point{
			{Config: report.Config{P: 1, Nodes: 1, PPN: 1}, Time: 8, Serial: &serial},
			{Config: report.Config{P: 2, Nodes: 1, PPN: 2}, Time: 4.4},
			{Config: report.Config{P: 4, Nodes: 1, PPN: 4}, Time: 2.9},
			{Config: report.Config{P: 8, Nodes: 2, PPN: 4}, Time: 2.6},
		}}
	r, err := report.Speedup(sweep, report.SpeedupOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := report.Write(os.Stdout, r, report.Text); err != nil {
		fmt.Println(err)
	}
	// Output:
	// program: ./examples/heat
	// machine: local
	// args:    -n 500
	// serial fraction f = 0.1000 (estimated by the model: serial time / T(1))
	//
	//   P  nodes x ppn  time (s)  speedup  efficiency  Amdahl  Gustafson  Karp-Flatt
	//   1          1x1         8    1.000       1.000   1.000      1.000           -
	//   2          1x2       4.4    1.818       0.909   1.818      1.900      0.1000
	//   4          1x4       2.9    2.759       0.690   3.077      3.700      0.1500
	//   8          2x4       2.6    3.077       0.385   4.706      7.300      0.2286
	//
	// optimum: P = 8 (2x4), 2.6 s
	// scalability range: up to P = 4 (efficiency < 0.500 from P = 8)
	// speedup is highest at P = 8 (3.077)
}
