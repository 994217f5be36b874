// Package kinds has one function per region kind and Go construct that the
// model must handle; model_test prints their control trees to golden files.
package kinds

import (
	"fmt"
	"os"
)

func sink(int) {}

func Sequence(a, b int) int {
	x := a + b
	sink(x)
	return x * 2
}

func IfThen(a int) int {
	if a > 0 {
		sink(a)
	}
	return a
}

func IfThenElse(a int) int {
	if a > 0 {
		sink(a)
	} else {
		sink(-a)
	}
	return a
}

func EarlyReturn(a int) int {
	if a < 0 {
		return 0
	}
	sink(a)
	return a
}

func Switch(a int) int {
	switch a {
	case 1:
		sink(10)
	case 2, 3:
		sink(20)
	default:
		sink(30)
	}
	return a
}

func TypeSwitch(x any) int {
	switch v := x.(type) {
	case int:
		return v
	case string:
		return len(v)
	}
	return -1
}

func Proper(a, b bool) {
	if a || b {
		sink(1)
	} else {
		sink(2)
	}
	sink(3)
}

func SelfLoop(n int) int {
	i := 0
loop:
	i++
	if i < n {
		goto loop
	}
	return i
}

func While(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func NaturalLoop(xs []int) int {
	for i, x := range xs {
		if x < 0 {
			return i
		}
		if x == 0 {
			break
		}
		sink(x)
	}
	return -1
}

func Improper(a bool, n int) int {
	i := 0
	if a {
		goto second
	}
first:
	i++
second:
	i += 2
	if i < n {
		goto first
	}
	return i
}

func Nested(m [][]float64) float64 {
	s := 0.0
	for i := range m {
		for j := range m[i] {
			if m[i][j] > 0 {
				s += m[i][j]
			}
		}
	}
	return s
}

func Labeled(m [][]int) int {
	n := 0
outer:
	for _, row := range m {
		for _, v := range row {
			if v < 0 {
				continue outer
			}
			if v > 100 {
				break outer
			}
			n += v
		}
	}
	return n
}

func RangeInt(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}

func RangeMap(m map[string]int) int {
	s := 0
	for _, v := range m {
		s += v
	}
	return s
}

func RangeChan(ch chan int) int {
	s := 0
	for v := range ch {
		s += v
	}
	return s
}

func RangeFunc(seq func(func(int) bool)) int {
	s := 0
	for v := range seq {
		if v > 10 {
			break
		}
		s += v
	}
	return s
}

func Select(a, b chan int, done chan struct{}) int {
	for {
		select {
		case v := <-a:
			sink(v)
		case v := <-b:
			sink(-v)
		case <-done:
			return 0
		}
	}
}

func Defer(f *os.File) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	defer f.Close()
	_, err = f.Write([]byte("x"))
	return err
}

func Closure(xs []int) func() int {
	total := 0
	add := func(v int) { total += v }
	for _, x := range xs {
		add(x)
	}
	return func() int { return total }
}

type Acc struct{ sum float64 }

func (a *Acc) Add(v float64) {
	if v > 0 {
		a.sum += v
	}
}

func (a Acc) Sum() float64 { return a.sum }

type Number interface{ ~int | ~float64 }

func SumOf[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func UseGenerics() float64 {
	return float64(SumOf([]int{1, 2})) + SumOf([]float64{0.5})
}

func Exit(code int) {
	if code != 0 {
		fmt.Println("failing")
		os.Exit(code)
	}
	sink(code)
}

func Go(ch chan int) {
	go func() { ch <- 1 }()
	var s fmt.Stringer
	_ = s.String
}

func Infinite(ch chan int) {
	for {
		ch <- 1
	}
}

func DoWhile(n int) int {
	i := 0
	for {
		i++
		if i >= n {
			break
		}
	}
	return i
}

// CompoundBreak leaves its loop by a compound test: the structure folds
// the code after the loop, where both exits join, into the loop's region,
// whose statement is still the for statement (TestLoopSyntax).
func CompoundBreak(xs []float64, tol float64, n int) int {
	it := 0
	for {
		d := 0.0
		for _, x := range xs {
			d += x
		}
		it++
		if d < tol || it >= n {
			break
		}
	}
	println(it)
	return it
}
