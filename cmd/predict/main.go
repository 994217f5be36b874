// Command predict predicts how a Go SPMD program will scale on a cluster.
// See the README and `predict --help`.
package main

import (
	"os"

	"github.com/parpredict/parpredict/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
