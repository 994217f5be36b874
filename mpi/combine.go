package mpi

// combineInto sets acc[i] = acc[i] op in[i]: the element-wise step of
// every reduction, the goroutine backend's and Scan's.
func combineInto[T Real](op Op, acc, in []T) {
	switch op {
	case Sum:
		for i := range acc {
			acc[i] += in[i]
		}
	case Prod:
		for i := range acc {
			acc[i] *= in[i]
		}
	case Min:
		for i := range acc {
			acc[i] = min(acc[i], in[i])
		}
	case Max:
		for i := range acc {
			acc[i] = max(acc[i], in[i])
		}
	}
}
