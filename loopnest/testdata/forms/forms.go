// Package forms holds loop forms whose trip counts the loopnest tests check.
// Each loop's line carries a marker comment naming it in the test table;
// each loop body adds one to Hits[depth-1], so running a function counts
// the iterations its loops really make.
package forms

import (
	"math"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

// Hits counts iterations by loop depth. It is float64 so that the
// counting stores do not alias the int loads some loop bounds make.
var Hits = make([]float64, 3)

func LessThan(n int) {
	for i := 0; i < n; i++ { // lt
		Hits[0]++
	}
}

func LessEqual(n int) {
	for i := 0; i <= n; i++ { // le
		Hits[0]++
	}
}

func StepTwo(lo, hi int) {
	for i := lo; i < hi; i += 2 { // step2
		Hits[0]++
	}
}

func StepThreeLE(lo, hi int) {
	for i := lo; i <= hi; i += 3 { // step3le
		Hits[0]++
	}
}

func Descending(n int) {
	for i := n; i > 0; i-- { // desc
		Hits[0]++
	}
}

func DescendingGE(hi, lo int) {
	for i := hi; i >= lo; i -= 2 { // descge
		Hits[0]++
	}
}

func NotEqual(n int) {
	for i := 0; i != n; i++ { // ne
		Hits[0]++
	}
}

func ReversedTest(n int) {
	for i := 0; n > i; i++ { // rev
		Hits[0]++
	}
}

func RangeInt(n int) {
	for range n { // rangeint
		Hits[0]++
	}
}

func RangeSlice(s []float64) {
	for i := range s { // rangeslice
		Hits[0] += 1 + 0*s[i]
	}
}

func RangeArray(a [16]int) {
	for i := range a { // rangearray
		Hits[0] += float64(1 + 0*a[i])
	}
}

func RangeString(s string) {
	for range s { // rangestring
		Hits[0]++
	}
}

func RangeMap(m map[int]int) {
	for range m { // rangemap
		Hits[0]++
	}
}

func BoundBefore(n, rank, size int) {
	lo := rank * n / size
	hi := (rank + 1) * n / size
	for i := lo; i < hi; i++ { // before
		Hits[0]++
	}
}

func RankRows(c *mpi.Comm, n int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	for i := lo; i < hi; i++ { // rankrows
		Hits[0]++
	}
	for i := rank; i < n; i += size { // cyclic
		Hits[1]++
	}
}

func LenBound(a []int) {
	for i := 1; i < len(a)-1; i++ { // lenbound
		Hits[0]++
	}
}

func Triangular(n int) {
	for i := 0; i < n; i++ { // tri-outer
		Hits[0]++
		for j := 0; j < i; j++ { // tri-inner
			Hits[1]++
		}
	}
}

func UpperTriangular(n int) {
	for i := 0; i < n; i++ { // utri-outer
		Hits[0]++
		for j := i + 1; j < n; j++ { // utri-inner
			Hits[1]++
		}
	}
}

func BreakOut(a []int, x int) {
	for i := 0; i < len(a); i++ { // break
		Hits[0]++
		if a[i] == x {
			break
		}
	}
}

func BreakOnIndex(n int) {
	for i := 0; i < n; i++ { // breakidx
		if i == 10 {
			break
		}
		Hits[0]++
	}
}

func Continues(n int) {
	for i := 0; i < n; i++ { // continue
		if i%3 == 0 {
			continue
		}
		Hits[0]++
	}
}

func Returns(a []int) int {
	for i := range a { // return
		Hits[0]++
		if a[i] < 0 {
			return i
		}
	}
	return -1
}

func Labeled(n int) {
outer:
	for i := 0; i < n; i++ { // lab-outer
		Hits[0]++
		for j := 0; j < n; j++ { // lab-inner
			Hits[1]++
			if j == i {
				continue outer
			}
			if j > 5 {
				break outer
			}
		}
	}
}

func Converge(tol float64) {
	res := 1.0
	for res > tol { // while
		Hits[0]++
		res *= 0.5
	}
}

func ConvergeCounted(maxit int, tol float64) {
	res := 1.0
	for it := 0; it < maxit && res > tol; it++ { // maxit
		Hits[0]++
		res *= 0.5
	}
}

func WhileCounter(n int) {
	i := 0
	for i < n { // whilecounter
		Hits[0]++
		i++
	}
}

func Sparse(rowptr []int, val []float64, n int) {
	for i := 0; i < n; i++ { // csr-rows
		Hits[0]++
		for k := rowptr[i]; k < rowptr[i+1]; k++ { // csr-inner
			Hits[1] += 1 + 0*math.Round(val[k])
		}
	}
}

func FlagBound(n *int) {
	mpi.Main(func(c *mpi.Comm) {
		for i := 0; i < *n; i++ { // flag
			Hits[0]++
		}
	})
}

func MinBound(n, chunk int) {
	for i := 0; i < min(n, chunk); i++ { // min
		Hits[0]++
	}
}

func Communicates(c *mpi.Comm, steps int) {
	buf := make([]float64, 4)
	for s := 0; s < steps; s++ { // mpi-outer
		for i := range buf { // mpi-inner
			buf[i] = float64(s + i)
		}
		mpi.Allreduce(c, buf, buf, mpi.Sum)
	}
}

// CountPositive's loop result steers the caller's loop bound: reducing the
// loop would leave the interpreter without the count it needs.
func CountPositive(a []float64) {
	k := 0
	for i := range a { // steer
		if a[i] > 0 {
			k++
		}
	}
	for j := 0; j < k; j++ { // steered
		Hits[1]++
	}
}

func Impure(n int) {
	for i := 0; i < n; i++ { // impure
		println(i)
	}
}

// Words adds up the words of lines that strings' trimming and cutting
// functions leave: they write nothing, so the loop is reduced.
func Words(lines []string, words []float64) {
	for _, l := range lines { // strings-pure
		Hits[0]++
		l = strings.Trim(strings.TrimPrefix(strings.ToLower(l), "#"), ".,;")
		if k, _, ok := strings.Cut(l, "="); ok {
			words[0] += float64(len(strings.Fields(strings.ReplaceAll(k, "-", " "))))
		}
	}
}

// Sink holds what Keep is given.
var Sink float64

// Keep stores s: passing a loop's result to it decides nothing.
func Keep(s float64) { Sink = s }

// PassedOn's loop result is passed to a function of the program that
// only stores it: the loop is still reduced.
func PassedOn(a []float64) {
	s := 0.0
	for i := range a { // passed
		s += a[i]
	}
	Keep(s)
}

// checker is an interface whose one method of the program branches on
// its argument.
type checker interface{ check(x float64) }

type positive struct{}

func (positive) check(x float64) {
	if x > 0 {
		Hits[0]++
	}
}

// PassedToCheck's loop result reaches a branch through an interface
// method call: the loop is kept.
func PassedToCheck(a []float64, c checker) {
	s := 0.0
	for i := range a { // ifacesteer
		s += a[i]
	}
	c.check(s)
}

// UsePositive converts positive to checker, so that the interface call
// above may run its method.
func UsePositive(a []float64) { PassedToCheck(a, positive{}) }

// Cyclic is a cyclic distribution of n rows over size ranks, seen from
// rank, as a value.
type Cyclic struct{ n, rank, size int }

// Local is how many rows the rank holds.
func (d Cyclic) Local() int { return (d.n - d.rank + d.size - 1) / d.size }

// MethodBound's bound is a value receiver's method, called in the loop's
// header every iteration.
func MethodBound(d Cyclic) {
	for l := 0; l < d.Local(); l++ { // methodbound
		Hits[0]++
	}
}

// Band is the rows lo..hi of a rank.
type Band struct{ lo, hi int }

// Rows is how many rows the band holds.
func (b *Band) Rows() int { return b.hi - b.lo }

// PointerMethodBound's bound is a pointer receiver's method.
func PointerMethodBound(b *Band) {
	for i := 0; i < b.Rows(); i++ { // ptrmethodbound
		Hits[0]++
	}
}

// NewCyclic and NewBand make the values the tests run.
func NewCyclic(n, rank, size int) Cyclic { return Cyclic{n, rank, size} }
func NewBand(lo, hi int) *Band           { return &Band{lo, hi} }

// Block holds four values per body.
type Block struct{ buf []float64 }

// Bodies is how many bodies the block holds.
func (b Block) Bodies() int { return len(b.buf) / 4 }

// HoistedLenBound's inner bound is a value receiver's method returning a
// slice field's length, called before the inner loop, in the outer
// loop's body.
func HoistedLenBound(mine, other Block) {
	for i := 0; i < mine.Bodies(); i++ { // hoistedlen
		Hits[0]++
		m := other.Bodies()
		for j := 0; j < m; j++ {
			Hits[1]++
		}
	}
}

// NewBlock makes a block of n bodies.
func NewBlock(n int) Block { return Block{make([]float64, 4*n)} }

// Span is the rows lo..hi of part i of k of n rows.
func Span(n, k, i int) (lo, hi int) { return i * n / k, (i + 1) * n / k }

// SpanRows loops over the parts, and over each part's rows from Span.
func SpanRows(n, k int) {
	for r := 0; r < k; r++ { // spanrows
		Hits[0]++
		a0, a1 := Span(n, k, r)
		for i := a0; i < a1; i++ {
			Hits[1]++
		}
	}
}

// PointRows ranges over each row of a flat array, cut in the loop around:
// the inner count is the cut's bounds' difference.
func PointRows(x []float64, rows, dim int) {
	for i := 0; i < rows; i++ { // cutrows-outer
		Hits[0]++
		for range x[i*dim : (i+1)*dim] { // cutrows-inner
			Hits[1]++
		}
	}
}

// Butterflies has the loops of a radix-2 FFT: a counter doubled each
// stage, a block loop stepping by twice it, and the butterflies of a
// block.
func Butterflies(n int) {
	for half := 1; half < n; half *= 2 { // geom-stages
		Hits[0]++
		for start := 0; start < n; start += 2 * half { // geom-blocks
			Hits[1]++
			for k := 0; k < half; k++ { // geom-pairs
				Hits[2]++
			}
		}
	}
}

// Halving runs a tree's levels from the top: s /= 2 down to 1.
func Halving(n int) {
	for s := n / 2; s > 0; s /= 2 { // geom-halve
		Hits[0]++
	}
}

// Shifting is Halving with a shift, and an inclusive test.
func Shifting(n int) {
	for s := n; s >= 1; s >>= 1 { // geom-shift
		Hits[0]++
	}
}

// Doubling doubles by a shift up to an inclusive bound.
func Doubling(lo, n int) {
	for d := lo; d <= n; d <<= 1 { // geom-shl
		Hits[0]++
	}
}

// NeverDoubles multiplies a counter that starts at 0: it never reaches
// its bound, and its count must not evaluate.
func NeverDoubles(n int) {
	for x := 0; x < n; x *= 2 { // geom-zero
		Hits[0]++
		if Hits[0] > 10 {
			return
		}
	}
}

// Blocks is a rank's share of a distributed array, as a transpose keeps
// it.
type Blocks struct {
	size, width int
	data, recv  []complex128
}

// NewBlocks makes size blocks of width elements.
func NewBlocks(size, width int) *Blocks {
	return &Blocks{size: size, width: width, data: make([]complex128, size*width), recv: make([]complex128, size*width)}
}

// Unpack copies each received block into place: copy writes complex128
// elements, which cannot change g.size.
func Unpack(g *Blocks) {
	for p := 0; p < g.size; p++ { // copy-field
		Hits[0]++
		copy(g.data[p*g.width:(p+1)*g.width], g.recv[p*g.width:(p+1)*g.width])
	}
}

// CopyCounted copies ints while a count read through a pointer is below
// i: the copy may write that int, so the count is data.
func CopyCounted(dst, src []int, n *int) {
	for i := 0; i < *n; i++ { // copy-int
		Hits[0]++
		copy(dst, src)
	}
}
