package main

type block struct{ buf []float64 }

func (b block) len() int { return len(b.buf) }

func sum(other block) float64 {
	s := 0.0
	for j := 0; j < other.len(); j++ {
		s += other.buf[j]
	}
	return s
}

func main() { println(sum(block{make([]float64, 10)})) }
