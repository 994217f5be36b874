package kern

// Work sums a series of n terms.
func Work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 1 / float64(i+1)
	}
	return s
}
