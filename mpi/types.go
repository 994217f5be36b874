package mpi

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Integer is the set of Go integer element types.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Float is the set of Go floating-point element types.
type Float interface{ ~float32 | ~float64 }

// Complex is the set of Go complex element types.
type Complex interface{ ~complex64 | ~complex128 }

// Real is the set of element types that reductions accept (they need order
// for Min and Max).
type Real interface{ Integer | Float }

// Elem is the set of element types of message buffers.
type Elem interface{ Integer | Float | Complex }

// Wildcards for Recv and Irecv.
const (
	AnySource = -1
	AnyTag    = -1
)

// Undefined as a Split color leaves the calling rank out of every new
// communicator; Split then returns nil.
const Undefined = -1

// Status describes a completed receive: the sender's rank in the
// communicator, the tag, and the number of elements received.
type Status struct {
	Source int
	Tag    int
	Count  int
}

// Op is a reduction operation.
type Op int

// The reduction operations.
const (
	Sum Op = iota
	Prod
	Min
	Max
)

func (op Op) String() string {
	switch op {
	case Sum:
		return "Sum"
	case Prod:
		return "Prod"
	case Min:
		return "Min"
	case Max:
		return "Max"
	}
	return fmt.Sprintf("Op(%d)", int(op))
}

// dtype identifies an element type to the backends (MPI datatypes, and the
// arithmetic of reductions).
type dtype uint8

const (
	dtInt8 dtype = iota
	dtInt16
	dtInt32
	dtInt64
	dtUint8
	dtUint16
	dtUint32
	dtUint64
	dtFloat32
	dtFloat64
	dtComplex64
	dtComplex128
)

func (d dtype) String() string {
	return [...]string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "complex64", "complex128"}[d]
}

// dtypeOf maps T (including named types such as `type Celsius float64`) to
// its dtype by kind, so int and uint take the platform's width.
func dtypeOf[T Elem]() dtype {
	t := reflect.TypeFor[T]()
	switch t.Kind() {
	case reflect.Int8:
		return dtInt8
	case reflect.Int16:
		return dtInt16
	case reflect.Int32:
		return dtInt32
	case reflect.Int, reflect.Int64:
		if t.Size() == 4 {
			return dtInt32
		}
		return dtInt64
	case reflect.Uint8:
		return dtUint8
	case reflect.Uint16:
		return dtUint16
	case reflect.Uint32:
		return dtUint32
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if t.Size() == 4 {
			return dtUint32
		}
		return dtUint64
	case reflect.Float32:
		return dtFloat32
	case reflect.Float64:
		return dtFloat64
	case reflect.Complex64:
		return dtComplex64
	}
	return dtComplex128
}

// bytesOf views buf as bytes without copying.
func bytesOf[T Elem](buf []T) []byte {
	if len(buf) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*int(unsafe.Sizeof(zero)))
}

// sizeOf is the byte size of one element of T.
func sizeOf[T Elem]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// alignedBytes allocates n bytes aligned for any element type, so that
// reductions can view internal copies as typed slices.
func alignedBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	words := make([]complex128, (n+15)/16)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}
