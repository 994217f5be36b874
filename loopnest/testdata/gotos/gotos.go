// Package gotos has control flow that goto makes: an irreducible cycle,
// which is no loop, and a backward goto that is one.
package gotos

func Irreducible(n int) int {
	i := 0
	if n > 5 {
		goto b
	}
a:
	i++
b:
	i += 2
	if i < n {
		goto a
	}
	return i
}

func BackwardGoto(n int) int {
	s, i := 0, 0
top:
	if i < n {
		s += i
		i++
		goto top
	}
	return s
}

func Infinite(ch chan int) {
	for {
		ch <- 1
	}
}
