// Command unsupported uses, in each case, a construct the interpreter
// does not model inside a rank: a goroutine, a channel, a select, a
// goroutine that a library function starts (TestUnsupportedConstructs).
package main

import (
	"flag"
	"fmt"
	"sync"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	which := flag.String("case", "go", "go, chan, select or wg")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		sum := 0
		switch *which {
		case "go":
			done := 0
			go func() { done = 1 }() // want "go statement"
			sum += done
		case "chan":
			ch := make(chan int, 1) // want "channel"
			ch <- c.Rank()
			sum += <-ch
		case "select":
			var ch chan int
			select { // want "channel"
			case v := <-ch:
				sum += v
			default:
			}
		case "wg":
			var wg sync.WaitGroup
			hits := []int{0}
			wg.Go(func() { hits[0]++ }) // want "goroutine started by (*sync.WaitGroup).Go"
			wg.Wait()
			sum += hits[0]
		}
		fmt.Println(sum)
	})
}

// unused is never called: FindUnsupported must not list its goroutine.
func unused() {
	go func() {}()
}
