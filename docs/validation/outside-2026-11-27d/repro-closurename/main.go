// Command repro-closurename: two types each with a method Step that
// holds a closure. model.FuncName names both closures "main.Step$1"
// (fn.Name() has no receiver), so the profile gets the same region ID
// twice; predict writes it, then refuses to read it back ("the id
// appears twice; profile the program again").
//
//	go run . -np 2
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type A struct{ x []float64 }
type B struct{ x []float64 }

func apply(x []float64, f func(float64) float64) {
	for i := range x {
		x[i] = f(x[i])
	}
}

func (a *A) Step() { apply(a.x, func(v float64) float64 { return v + 1 }) }
func (b *B) Step() { apply(b.x, func(v float64) float64 { return v * 2 }) }

func main() {
	mpi.Main(func(c *mpi.Comm) {
		a, b := &A{make([]float64, 1000)}, &B{make([]float64, 1000)}
		c.BeginInterval(1)
		for range 100 {
			a.Step()
			b.Step()
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(a.x[0], b.x[0])
		}
	})
}
