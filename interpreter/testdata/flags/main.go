// Command flags is interpreter test input: every kind of flag package
// flag defines, given on the command line; the values the emulation
// parses are checked against what flag gives (the program runs for real
// with TestFlagKinds's arguments without a failed check).
package main

import (
	"flag"
	"strings"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	n := flag.Int("n", 1, "")
	u := flag.Uint64("u", 1, "")
	d := flag.Duration("d", time.Second, "")
	var w uint
	flag.UintVar(&w, "w", 1, "")
	var names list
	flag.Var(&names, "name", "")
	mode := "fast"
	flag.Func("mode", "", func(s string) error { mode = s; return nil })
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		if *n != 5 || *u != 1<<40 || *d != 1500*time.Millisecond || w != 7 {
			panic("wrong: flag values")
		}
		if flag.NArg() != 1 || flag.Arg(0) != "input" {
			panic("wrong: positional arguments")
		}
		_, _ = names, mode
		c.Barrier()
	})
}
