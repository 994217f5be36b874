// Command noranks is a serial program: it never starts MPI ranks, so
// there is nothing per rank to profile.
package main

import "fmt"

func main() {
	s := 0
	for i := range 1000 {
		s += i
	}
	fmt.Println(s)
}
