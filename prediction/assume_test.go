package prediction

import (
	"fmt"
	"slices"
	"testing"

	"github.com/parpredict/parpredict/interpreter"
)

func TestAssumptionsByConfiguration(t *testing.T) {
	branch := func(f string) interpreter.Assumption {
		return interpreter.Assumption{Pos: "main.go:229:3", What: "branch on an unknown value follows the profiled frequency " + f}
	}
	everywhere := interpreter.Assumption{Pos: "main.go:180:15", What: "mpi.Sendrecv: receive buffer length unknown, taken to hold the message it gets"}
	twoRanks := interpreter.Assumption{Pos: "main.go:90:2", What: "a guess made only with two ranks or more"}
	// Three branches at one position (one per arm of a switch, say) in
	// one configuration are three branches, not one.
	arms := []interpreter.Assumption{
		{Pos: "main.go:114:33", What: "branch on an unknown value follows the profiled frequency 0"},
		{Pos: "main.go:114:33", What: "branch on an unknown value follows the profiled frequency 0.317"},
	}
	var s assumptionSet
	s.add("P = 1", []interpreter.Assumption{branch("0.9996"), everywhere, arms[0], arms[1]})
	s.add("P = 2", []interpreter.Assumption{branch("0.9998"), everywhere, twoRanks, arms[0], arms[1]})
	s.add("P = 4", []interpreter.Assumption{branch("0.9998"), everywhere, twoRanks})
	var got []string
	for _, a := range s.sorted() {
		got = append(got, a.Pos+": "+a.What)
	}
	want := []string{
		"main.go:114:33: branch on an unknown value follows the profiled frequency 0 (at P = 1, P = 2)",
		"main.go:114:33: branch on an unknown value follows the profiled frequency 0.317 (at P = 1, P = 2)",
		"main.go:180:15: mpi.Sendrecv: receive buffer length unknown, taken to hold the message it gets",
		"main.go:229:3: branch on an unknown value follows the profiled frequency 0.9996 (at P = 1), 0.9998 (at P = 2, P = 4)",
		"main.go:90:2: a guess made only with two ranks or more (at P = 2, P = 4)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("assumptions:\n%q\nwant\n%q", got, want)
	}

	// A count taken at each rank count, three numbers of which two
	// differ: one line, not one per configuration.
	count := func(n, p int) interpreter.Assumption {
		return interpreter.Assumption{Pos: "main.go:100:2", What: fmt.Sprintf("reduced nest l: its count needs len(s.parts), which the rank does not know; taken as %d, which gives the %d iterations per entry at rank 0 of %d", n, n, p)}
	}
	var c assumptionSet
	for _, p := range []int{1, 2, 4} {
		c.add(fmt.Sprintf("P = %d", p), []interpreter.Assumption{count(400000/p, p)})
	}
	got = nil
	for _, a := range c.sorted() {
		got = append(got, a.What)
	}
	if want := []string{"reduced nest l: its count needs len(s.parts), which the rank does not know; taken as [a], which gives the [b] iterations per entry at rank 0 of [c]; [a], [b], [c] = 400000, 400000, 1 (at P = 1); 200000, 200000, 2 (at P = 2); 100000, 100000, 4 (at P = 4)"}; !slices.Equal(got, want) {
		t.Errorf("counts by rank count:\n%q\nwant\n%q", got, want)
	}
	// Three or more consecutive configurations of the sweep are named by
	// the first and the last.
	sweep := assumptionSet{configs: []string{"P = 1", "P = 2", "P = 4", "P = 8", "P = 16"}}
	if got, want := sweep.labels([]int{0, 1, 2, 4}), "at P = 1 to P = 4, P = 16"; got != want {
		t.Errorf("labels: %q, want %q", got, want)
	}
	if got, want := sweep.labels([]int{1, 2}), "at P = 2, P = 4"; got != want {
		t.Errorf("labels: %q, want %q", got, want)
	}
}

func TestOneNumber(t *testing.T) {
	for _, c := range []struct {
		what, tmpl, value string
		ok                bool
	}{
		{"frequency 0.5", "frequency \x00", "0.5", true},
		{"taken as 1575 bytes, from the run", "taken as \x00 bytes, from the run", "1575", true},
		{"size 12, count 3", "", "", false},
		{"no number here", "", "", false},
		{"the mean (2e-05)", "", "", false}, // "(2e-05" does not parse: left alone
	} {
		tmpl, value, ok := oneNumber(c.what)
		if tmpl != c.tmpl || value != c.value || ok != c.ok {
			t.Errorf("oneNumber(%q) = %q, %q, %v; want %q, %q, %v", c.what, tmpl, value, ok, c.tmpl, c.value, c.ok)
		}
	}
}

// oneNumber splits what at its only number (a word that parses as a
// float, trailing punctuation aside) into the text with a NUL in the
// number's place and the number. It fails for none or more than one.
func oneNumber(what string) (tmpl, value string, ok bool) {
	tmpl, values := numbers(what)
	if len(values) != 1 {
		return "", "", false
	}
	return tmpl, values[0], true
}
