package main

type block struct{ buf []float64 }

func (b block) len() int { return len(b.buf) }

func sum(other block, out []float64) {
	for i := range out {
		s := 0.0
		for j := 0; j < other.len(); j++ {
			s += other.buf[j]
		}
		out[i] = s
	}
}

func main() {
	b := block{make([]float64, 10)}
	sum(b, make([]float64, 3))
}
