// Package kern is genkernel's generic kernel, in a package of its own.
package kern

// Number is what Sum adds.
type Number interface{ ~int | ~float64 }

// Sum adds passes passes over xs.
func Sum[T Number](xs []T, passes int) T {
	var s T
	for p := 0; p < passes; p++ {
		for _, x := range xs {
			s += x
		}
	}
	return s
}
