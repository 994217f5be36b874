package main

const (
	match    = 2
	mismatch = -1
	gap      = 1
)

// best is the largest of its arguments.
func best[T int32 | int64 | float64](x T, more ...T) T {
	for _, y := range more {
		if y > x {
			x = y
		}
	}
	return x
}

// fillRow computes one row of the table for letter ai of the first
// sequence against bs: cur[j] from prev[j-1], prev[j] and cur[j-1];
// cur[0] is the left column's value for this row.
func fillRow(cur, prev []int32, ai byte, bs []byte, left0 int32) {
	cur[0] = left0
	for j := 1; j < len(cur); j++ {
		s := int32(mismatch)
		if ai == bs[j-1] {
			s = match
		}
		cur[j] = best(prev[j-1]+s, prev[j]-gap, cur[j-1]-gap)
	}
}

// serial is the score of the whole table on one rank.
func serial(a, b []byte) int32 {
	prev, cur := make([]int32, len(b)+1), make([]int32, len(b)+1)
	for j := range prev {
		prev[j] = -int32(j) * gap
	}
	for i := range a {
		fillRow(cur, prev, a[i], b, -int32(i+1)*gap)
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
