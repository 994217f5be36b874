// Package forms holds loop forms whose trip counts loopnest_test checks.
// Each loop's line carries a marker comment naming it in the test table.
package forms

import (
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// acc receives the loops' work; writing memory does not stop reduction.
var acc = make([]float64, 1)

func lessThan(n int) {
	for i := 0; i < n; i++ { // lt
		acc[0] += float64(i)
	}
}

func lessEqual(n int) {
	for i := 0; i <= n; i++ { // le
		acc[0] += float64(i)
	}
}

func stepTwo(lo, hi int) {
	for i := lo; i < hi; i += 2 { // step2
		acc[0] += float64(i)
	}
}

func stepThreeLE(lo, hi int) {
	for i := lo; i <= hi; i += 3 { // step3le
		acc[0] += float64(i)
	}
}

func descending(n int) {
	for i := n; i > 0; i-- { // desc
		acc[0] += float64(i)
	}
}

func descendingGE(hi, lo int) {
	for i := hi; i >= lo; i -= 2 { // descge
		acc[0] += float64(i)
	}
}

func notEqual(n int) {
	for i := 0; i != n; i++ { // ne
		acc[0] += float64(i)
	}
}

func reversedTest(n int) {
	for i := 0; n > i; i++ { // rev
		acc[0] += float64(i)
	}
}

func rangeInt(n int) {
	for i := range n { // rangeint
		acc[0] += float64(i)
	}
}

func rangeSlice(s []float64) {
	for i := range s { // rangeslice
		acc[0] += float64(i)
	}
}

func rangeArray(a [16]int) {
	for i := range a { // rangearray
		acc[0] += float64(i)
	}
}

func rangeString(s string) {
	for i := range s { // rangestring
		acc[0] += float64(i)
	}
}

func rangeMap(m map[int]int) {
	for k := range m { // rangemap
		acc[0] += float64(k)
	}
}

func boundBefore(n, rank, size int) {
	lo := rank * n / size
	hi := (rank + 1) * n / size
	for i := lo; i < hi; i++ { // before
		acc[0] += float64(i)
	}
}

func rankRows(c *mpi.Comm, n int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	for i := lo; i < hi; i++ { // rankrows
		acc[0] += float64(i)
	}
	for i := rank; i < n; i += size { // cyclic
		acc[0] += float64(i)
	}
}

func lenBound(a []int) {
	for i := 1; i < len(a)-1; i++ { // lenbound
		acc[0] += float64(a[i])
	}
}

func triangular(n int) {
	for i := 0; i < n; i++ { // tri-outer
		for j := 0; j < i; j++ { // tri-inner
			acc[0] += float64(j)
		}
	}
}

func upperTriangular(n int) {
	for i := 0; i < n; i++ { // utri-outer
		for j := i + 1; j < n; j++ { // utri-inner
			acc[0] += float64(j)
		}
	}
}

func breakOut(a []int, x int) {
	for i := 0; i < len(a); i++ { // break
		if a[i] == x {
			break
		}
	}
}

func breakOnIndex(n int) {
	for i := 0; i < n; i++ { // breakidx
		if i == 10 {
			break
		}
		acc[0] += float64(i)
	}
}

func continues(n int) {
	for i := 0; i < n; i++ { // continue
		if i%3 == 0 {
			continue
		}
		acc[0] += float64(i)
	}
}

func returns(a []int) int {
	for i := range a { // return
		if a[i] < 0 {
			return i
		}
	}
	return -1
}

func labeled(n int) {
outer:
	for i := 0; i < n; i++ { // lab-outer
		for j := 0; j < n; j++ { // lab-inner
			if j == i {
				continue outer
			}
			if j > 5 {
				break outer
			}
		}
	}
}

func converge(tol float64) {
	res := 1.0
	for res > tol { // while
		res *= 0.5
	}
}

func convergeCounted(maxit int, tol float64) {
	res := 1.0
	for it := 0; it < maxit && res > tol; it++ { // maxit
		res *= 0.5
	}
}

func whileCounter(n int) {
	i := 0
	for i < n { // whilecounter
		i++
	}
}

func sparse(rowptr []int, val []float64, n int) {
	for i := 0; i < n; i++ { // csr-rows
		for k := rowptr[i]; k < rowptr[i+1]; k++ { // csr-inner
			acc[0] += math.Round(val[k])
		}
	}
}

func flagBound(n *int) {
	mpi.Main(func(c *mpi.Comm) {
		for i := 0; i < *n; i++ { // flag
			acc[0] += float64(i)
		}
	})
}

func minBound(n, chunk int) {
	for i := 0; i < min(n, chunk); i++ { // min
		acc[0] += float64(i)
	}
}
