//go:build !openmpi && !mpich

package mpi

import "unsafe"

// combine sets acc[i] = acc[i] op in[i] for byte buffers holding elements of
// type dt. Both buffers must be aligned for dt (user slices and
// alignedBytes are).
func combine(dt dtype, op Op, acc, in []byte) {
	switch dt {
	case dtInt8:
		combineAs[int8](op, acc, in)
	case dtInt16:
		combineAs[int16](op, acc, in)
	case dtInt32:
		combineAs[int32](op, acc, in)
	case dtInt64:
		combineAs[int64](op, acc, in)
	case dtUint8:
		combineAs[uint8](op, acc, in)
	case dtUint16:
		combineAs[uint16](op, acc, in)
	case dtUint32:
		combineAs[uint32](op, acc, in)
	case dtUint64:
		combineAs[uint64](op, acc, in)
	case dtFloat32:
		combineAs[float32](op, acc, in)
	case dtFloat64:
		combineAs[float64](op, acc, in)
	default:
		panic("mpi: internal error: reduction on " + dt.String())
	}
}

func combineAs[T Real](op Op, accb, inb []byte) {
	n := len(accb) / sizeOf[T]()
	if n == 0 {
		return
	}
	combineInto(op, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(accb))), n),
		unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(inb))), n))
}
