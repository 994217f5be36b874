// Package callees holds reduced nests that call kernels with loops of
// their own, for the tests of Loop.Callees.
package callees

func rowSum(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v
	}
	return s
}

// Rows calls rowSum on a row of a: rowSum's loop runs n times per call.
func Rows(a []float64, rows, n int) float64 {
	t := 0.0
	for i := 0; i < rows; i++ { // rows
		t += rowSum(a[i*n : (i+1)*n])
	}
	return t
}

func upTo(k int) float64 {
	s := 0.0
	for j := 0; j < k; j++ {
		s += float64(j)
	}
	return s
}

// Tri calls upTo with the caller's counter: a triangular nest across the
// call.
func Tri(n int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // tri
		t += upTo(i)
	}
	return t
}

func leaf(m int) float64 {
	s := 0.0
	for j := 0; j < m; j++ {
		s++
	}
	return s
}

func mid(m int) float64 {
	s := 0.0
	for k := 0; k < 3; k++ {
		s += leaf(m)
	}
	return s
}

// Nested reaches leaf's loop through mid's.
func Nested(n, m int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // nested
		t += mid(m)
	}
	return t
}

func twice(m int) float64 {
	s := 0.0
	for j := 0; j < m; j++ {
		s++
	}
	return s
}

// Twice's kernel has a second call site: it is counted on its own all
// the same (the prediction takes this site's share of its profiled
// entries from the sites' calls).
func Twice(n, m int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // twice
		t += twice(m)
	}
	return t + twice(1)
}

func hooked(m int) float64 {
	s := 0.0
	for j := 0; j < m; j++ {
		s++
	}
	return s
}

// Hook makes hooked a function value, callable from anywhere.
var Hook = hooked

// Hooked calls a kernel that is also a function value.
func Hooked(n, m int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // hooked
		t += hooked(m)
	}
	return t
}

func scan(r []float64) float64 {
	for i, v := range r {
		if v < 0 {
			return float64(i)
		}
	}
	return -1
}

// Search calls a kernel whose loop can leave early: its time stays the
// caller's.
func Search(a []float64, rows, n int) float64 {
	t := 0.0
	for i := 0; i < rows; i++ { // search
		t += scan(a[i*n : (i+1)*n])
	}
	return t
}

func shift(cur, prev []float64) {
	for j := 1; j < len(cur); j++ {
		cur[j] = prev[j-1] + 1
	}
}

// Swap's buffers trade places every iteration, and the call after the
// loop counts over one of them: the loop is reduced all the same, its
// results set from its trip count (Rotation).
func Swap(n, m int) float64 {
	a, b := make([]float64, m), make([]float64, m)
	for i := 0; i < n; i++ { // swap
		shift(a, b)
		a, b = b, a
	}
	shift(a, b)
	return a[0]
}

// Drift's buffers are not traded: b takes a new slice every iteration,
// so what the loop leaves steers the call after it.
func Drift(n, m int) float64 {
	a, b := make([]float64, m), make([]float64, m)
	for i := 0; i < n; i++ { // drift
		shift(a, b)
		a, b = b, a[1:]
	}
	shift(a, b)
	return a[0]
}

// Kern's loop runs to a field of its receiver.
type Kern struct {
	N   int
	Out []float64
}

func (k *Kern) apply(x []float64) {
	n := k.N
	for i := 0; i < n; i++ {
		k.Out[i%len(k.Out)] += x[0]
	}
}

// Fields calls a kernel whose count, k.N, is read from memory when the
// nest is entered: nothing in the nest stores an int.
func Fields(k *Kern, x []float64, rows int) {
	for r := 0; r < rows; r++ { // fields
		k.apply(x)
	}
}

// applySwap is a wrapper without loops: it applies the kernel, then swaps
// the buffers. Its kernel's count, k.N, is read through the wrapper's
// receiver.
func (k *Kern) applySwap(x, y []float64) {
	k.apply(x)
	x[0], y[0] = y[0], x[0]
}

// Wrapped calls the kernel through the wrapper: the nest counts the
// kernel's loop as if it called it.
func Wrapped(k *Kern, x, y []float64, rows int) {
	for r := 0; r < rows; r++ { // wrapped
		k.applySwap(x, y)
	}
}

// twiceBy calls twice with its own argument, doubled.
func twiceBy(m int) float64 { return twice(2 * m) }

// ByWrapper counts twice's loop through twiceBy, its argument restated.
func ByWrapper(n, m int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // bywrapper
		t += twiceBy(m)
	}
	return t
}
