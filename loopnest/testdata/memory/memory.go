// Package memory holds loops whose counts are read from memory: a
// struct's fields, the rows of a 2-D slice, a captured variable; for the
// tests of symbolic.MemPath.
package memory

import "math/rand"

type Grid struct {
	Rows, Cols int
	A          [][]float64
}

// NewGrid makes the rows in a loop: the loop stores new slices into
// memory, so it is not reduced (the interpreter runs it to know the
// rows).
func NewGrid(rows, cols int) *Grid {
	g := &Grid{Rows: rows, Cols: cols, A: make([][]float64, rows)}
	for i := range g.A { // make-rows
		g.A[i] = make([]float64, cols)
	}
	return g
}

// Relax's loops are bounded by the struct's fields.
func (g *Grid) Relax() float64 {
	s := 0.0
	for i := 1; i < g.Rows-1; i++ { // fields
		for j := 1; j < g.Cols-1; j++ {
			g.A[i][j] *= 0.5
			s += g.A[i][j]
		}
	}
	return s
}

// Sum ranges over the rows and over each row.
func Sum(a [][]float64) float64 {
	s := 0.0
	for i := range a { // rows
		for j := range a[i] {
			s += a[i][j]
		}
	}
	return s
}

// Shrink changes the bound it counts to: not a count read at entry.
func (g *Grid) Shrink() float64 {
	s := 0.0
	for i := 0; i < g.Rows; i++ { // shrink
		s += float64(i)
		g.Rows--
	}
	return s
}

// Captured counts to a variable its closure captures.
func Captured(n int) func() float64 {
	limit := n
	f := func() float64 {
		s := 0.0
		for i := 0; i < limit; i++ { // captured
			s += float64(i)
		}
		return s
	}
	limit++
	return f
}

// Strided steps by a parameter the analysis cannot prove positive: the
// count checks it when evaluated.
func Strided(a []float64, lo, hi, stride int) float64 {
	s := 0.0
	for i := lo; i < hi; i += stride { // strided
		s += a[i]
	}
	return s
}

// Block indexes its array with a method that only computes.
type Block struct {
	NX, NY int
	U      []float64
}

func (b *Block) at(i, j int) int { return i*b.NY + j }

// Fill's loops call b.at, which writes nothing: their bounds, read from
// b, stay counts of the nest.
func (b *Block) Fill() {
	for i := 0; i < b.NX; i++ { // method-index
		for j := 0; j < b.NY; j++ {
			b.U[b.at(i, j)] = 1
		}
	}
}

// MonteCarlo draws from a generator: the nest is reduced, the
// generator's state written through its receiver.
func MonteCarlo(r *rand.Rand, n int) float64 {
	hits := 0.0
	for i := 0; i < n; i++ { // montecarlo
		x, y := r.Float64(), rand.Float64()
		if x*x+y*y < 1 {
			hits++
		}
	}
	return hits
}

// scaleRow writes a row's elements, never a row itself.
func scaleRow(y []float64, a float64) {
	for j := range y {
		y[j] *= a
	}
}

// Scale bounds its loop by a field and calls a kernel that writes
// float64s: the rows (a [][]float64) stay as they were, so the count is
// read at entry, and the kernel's loop is counted per row (len(g.A[i])).
func (g *Grid) Scale(reps int) {
	for r := 0; r < reps; r++ { // scale-rows
		for i := 0; i < len(g.A); i++ {
			scaleRow(g.A[i], 0.5)
		}
	}
}

// reset writes a whole Grid, its rows among its fields.
func (g *Grid) reset() { *g = Grid{} }

// Reset's bound may change with every call of reset.
func (g *Grid) Reset() {
	for i := 0; i < len(g.A); i++ { // reset
		g.reset()
	}
}

// Regrow gives each row a new length before the kernel runs over it:
// the kernel's count is not read at entry.
func Regrow(a [][]float64, n int) {
	for i := range a { // regrow
		a[i] = a[i][:n]
		scaleRow(a[i], 2)
	}
}

// Rows keeps N rows of W values in one array.
type Rows struct {
	W, N int
	V    []float64
}

// Row is row k of the array: a slice whose bounds are the count of a
// range over it.
func (r *Rows) Row(k int) []float64 { return r.V[k*r.W : (k+1)*r.W] }

// Halve ranges over each row the accessor returns: W per row.
func (r *Rows) Halve() {
	for k := 0; k < r.N; k++ { // accessor-rows
		row := r.Row(k)
		for j := range row {
			row[j] *= 0.5
		}
	}
}

// Buckets deals its data out to buckets of the same element type.
type Buckets struct {
	Data []int32
	Out  [][]int32
}

// Deal's bound, len(b.Data), is read at the loop's test, and the loop
// appends to b.Out's elements, also []int32: a slice's element is no
// struct's field, so the length stays as read at the nest's entry.
func (b *Buckets) Deal() {
	for k := 0; k+4 <= len(b.Data); k += 4 { // buckets
		for _, v := range b.Data[k : k+4] {
			o := int(v) % len(b.Out)
			b.Out[o] = append(b.Out[o], v)
		}
	}
}
