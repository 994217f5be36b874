package interpreter

import (
	"fmt"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// vkind is the kind of an abstract value.
type vkind uint8

const (
	vUnknown vkind = iota // depends on skipped work or unmodelled libraries
	vInt                  // i (unsigned values keep their bits)
	vFloat                // the float's bits in i
	vComplex              // the float bits of the real part in i, of the imaginary part in n
	vBool                 // i: 0 or 1
	vString               // str()
	vNil                  // nil pointer, slice, map, func, interface
	vPtr                  // obj, cell i (c < 0: index unknown)
	vSlice                // obj, offset i, len n, cap c
	vStruct               // obj: one cell per field (value semantics: copied on load/store)
	vArray                // obj: one cell per element (value semantics)
	vFunc                 // obj.fn, free variables in obj's cells; builtins: str() names it, no obj
	vIface                // obj cell 0 holds the dynamic value, obj.t its type
	vTuple                // obj: the components
	vMap                  // obj.m
	vOpaque               // an mpi handle: str() names it ("comm", "request"), i its id
)

// value is an abstract value: concrete where the interpreter could compute
// it, vUnknown where not. Arrays are never allocated for real: objects
// store only the cells that were written. Values are copied on every
// read and write of a frame slot, so the struct is kept small (48 bytes):
// floats live in i's bits, strings behind a pointer, rarely used parts in
// obj.
type value struct {
	k       vkind
	i, n, c int64
	sp      *string // vString, vOpaque, builtin vFunc: see str
	obj     *object
}

// The names of opaque values.
var (
	nameComm    = "comm"
	nameRequest = "request"
	nameIter    = "iter"
)

// strv is a string value.
func strv(s string) value { return value{k: vString, sp: &s} }

// str is a string's value, an opaque value's name, a builtin's name, or "".
func (v value) str() string {
	if v.sp == nil {
		return ""
	}
	return *v.sp
}

var unknown = value{k: vUnknown}

func intv(i int64) value     { return value{k: vInt, i: i} }
func floatv(f float64) value { return value{k: vFloat, i: int64(math.Float64bits(f))} }

func complexv(re, im float64) value {
	return value{k: vComplex, i: int64(math.Float64bits(re)), n: int64(math.Float64bits(im))}
}

// funcv is a function value without free variables.
func funcv(fn *ssa.Function) value { return value{k: vFunc, obj: &object{def: unknown, fn: fn}} }

// fl is a float's value, or a complex's real part.
func (v value) fl() float64 { return math.Float64frombits(uint64(v.i)) }

// im is a complex's imaginary part.
func (v value) im() float64 { return math.Float64frombits(uint64(v.n)) }

// fun is the function a function value calls, nil if it is unknown or a
// builtin.
func (v value) fun() *ssa.Function {
	if v.k != vFunc || v.obj == nil {
		return nil
	}
	return v.obj.fn
}
func boolv(b bool) value {
	if b {
		return value{k: vBool, i: 1}
	}
	return value{k: vBool}
}

func (v value) known() bool { return v.k != vUnknown }

// allUnknown reports whether every cell of o is unknown without reading
// them: none was written since it became unknown (havoc), so a payload
// need not look at a large skipped buffer cell by cell.
func (o *object) allUnknown() bool {
	return o.def.k == vUnknown && len(o.dense) == 0 && len(o.cells) == 0
}

func (v value) String() string {
	switch v.k {
	case vUnknown:
		return "?"
	case vInt:
		return fmt.Sprint(v.i)
	case vFloat:
		return fmt.Sprint(v.fl())
	case vComplex:
		return fmt.Sprint(complex(v.fl(), v.im()))
	case vBool:
		return fmt.Sprint(v.i != 0)
	case vString:
		return fmt.Sprintf("%q", v.str())
	case vNil:
		return "nil"
	case vSlice:
		return fmt.Sprintf("slice[%d:%d cap %d]", v.i, v.i+v.n, v.c)
	case vOpaque:
		return fmt.Sprintf("%s#%d", v.str(), v.i)
	}
	return fmt.Sprintf("<%d>", v.k)
}

// object is a memory block: a variable, an array, a struct, a closure's
// free variables. Cells written in order from 0 on are kept in dense (a
// struct's fields, a tuple, an array filled front to back), other written
// cells in cells, whose keys are never in [0, len(dense)). Cells in
// neither hold def (the zero value of the element type, or unknown once
// skipped code may have written them).
type object struct {
	dense []value
	cells map[int64]value
	def   value
	elem  types.Type    // element type of array objects, to materialise aggregates
	fn    *ssa.Function // the function of a function value
	t     types.Type    // the dynamic type of an interface value
	m     map[mapKey]value
	it    *iter // Range/Next state
	// fresh, for a large allocation some of whose pages were never
	// written, says which were (FirstTouch).
	fresh *freshPages
}

type mapKey struct {
	k vkind
	i int64
	f float64
	s string
}

func newObject(def value, elem types.Type) *object { return &object{def: def, elem: elem} }

// newDense is an object of unknown default whose cells 0..len(cells)-1
// hold cells.
func newDense(cells ...value) *object { return &object{def: unknown, dense: cells} }

func (o *object) get(i int64) value {
	if uint64(i) < uint64(len(o.dense)) {
		return o.dense[i]
	}
	if v, ok := o.cells[i]; ok {
		return v
	}
	if o.def.k == vStruct || o.def.k == vArray {
		// Each element of an aggregate array is its own aggregate.
		v := copyValue(o.def)
		o.set(i, v)
		return v
	}
	return o.def
}

func (o *object) set(i int64, v value) {
	if o.fresh != nil {
		o.touch(i, i+1)
	}
	switch {
	case uint64(i) < uint64(len(o.dense)):
		o.dense[i] = v
		return
	case i == int64(len(o.dense)) && o.cells == nil:
		o.dense = append(o.dense, v)
		return
	}
	if o.cells == nil {
		o.cells = map[int64]value{}
	}
	o.cells[i] = v
}

// touch marks cells [lo, hi) of a fresh allocation written and returns
// how many of their pages were not written before; o stops being fresh
// once every page was.
func (o *object) touch(lo, hi int64) int64 {
	n := o.fresh.touch(lo, hi)
	if o.fresh.covered >= o.fresh.pages {
		o.fresh = nil
	}
	return n
}

// havoc makes every cell of o unknown: skipped code may have written it
// (all of it, as far as first touches go).
// each calls f with every cell of o that holds a value of its own (the
// default stands for the others), in no fixed order: f must not depend
// on it.
func (o *object) each(f func(value)) {
	for _, c := range o.dense {
		f(c)
	}
	for _, c := range o.cells {
		f(c)
	}
	f(o.def)
}

func (o *object) havoc() {
	o.fresh = nil
	o.forget()
}

// forget makes every cell of o unknown, as a receive into it does: which
// pages were written stays as it was.
func (o *object) forget() {
	o.dense = nil
	o.cells = nil
	o.def = unknown
	o.m = nil
}

// copyValue gives aggregates value semantics.
func copyValue(v value) value {
	if (v.k != vStruct && v.k != vArray) || v.obj == nil {
		return v
	}
	o := &object{def: v.obj.def, elem: v.obj.elem}
	if len(v.obj.dense) > 0 {
		o.dense = make([]value, len(v.obj.dense))
		for i, c := range v.obj.dense {
			o.dense[i] = copyValue(c)
		}
	}
	if len(v.obj.cells) > 0 {
		o.cells = make(map[int64]value, len(v.obj.cells))
		for i, c := range v.obj.cells {
			o.cells[i] = copyValue(c)
		}
	}
	v.obj = o
	return v
}

// zeroValue is the zero value of t.
func zeroValue(t types.Type) value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return boolv(false)
		case u.Info()&types.IsInteger != 0:
			return intv(0)
		case u.Info()&types.IsFloat != 0:
			return floatv(0)
		case u.Info()&types.IsComplex != 0:
			return value{k: vComplex}
		case u.Info()&types.IsString != 0:
			return value{k: vString}
		}
		return value{k: vNil}
	case *types.Struct:
		o := &object{def: unknown}
		for i := range u.NumFields() {
			o.set(int64(i), zeroValue(u.Field(i).Type()))
		}
		return value{k: vStruct, obj: o}
	case *types.Array:
		return value{k: vArray, n: u.Len(), obj: newObject(zeroValue(u.Elem()), u.Elem())}
	}
	return value{k: vNil}
}

// unknownOf is an unknown value of type t; aggregates stay aggregates so
// that their fields can be addressed.
func unknownOf(t types.Type) value {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		o := &object{def: unknown}
		for i := range u.NumFields() {
			o.set(int64(i), unknownOf(u.Field(i).Type()))
		}
		return value{k: vStruct, obj: o}
	case *types.Tuple:
		o := &object{def: unknown}
		for i := range u.Len() {
			o.set(int64(i), unknownOf(u.At(i).Type()))
		}
		return value{k: vTuple, obj: o}
	}
	return unknown
}
