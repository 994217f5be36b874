package interpreter

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"
)

// basicOf returns t's underlying basic type, or nil.
func basicOf(t types.Type) *types.Basic {
	b, _ := t.Underlying().(*types.Basic)
	return b
}

func isUnsigned(t types.Type) bool {
	b := basicOf(t)
	return b != nil && b.Info()&types.IsUnsigned != 0
}

var sizes = types.SizesFor("gc", "amd64")

// numType is what arithmetic needs to know of an operand's type, worked
// out once per instruction rather than on every operation.
type numType struct {
	unsigned bool
	float32  bool
	bits     uint8 // integer width when below 64 bits, else 0 (no truncation)
}

func numOf(t types.Type) numType {
	b := basicOf(t)
	if b == nil {
		return numType{}
	}
	nt := numType{unsigned: b.Info()&types.IsUnsigned != 0, float32: b.Kind() == types.Float32}
	if bits := 8 * sizes.Sizeof(b); bits < 64 {
		nt.bits = uint8(bits)
	}
	return nt
}

// wrap truncates an integer result to the width of the type, as Go
// arithmetic does.
func (nt numType) wrap(i int64) int64 {
	if nt.bits == 0 {
		return i
	}
	if nt.unsigned {
		return int64(uint64(i) & (1<<uint(nt.bits) - 1))
	}
	shift := uint(64 - nt.bits)
	return i << shift >> shift
}

func (nt numType) round(f float64) float64 {
	if nt.float32 {
		return float64(float32(f))
	}
	return f
}

// wrap truncates an integer result to the width of t, as Go arithmetic does.
func wrap(i int64, t types.Type) int64 { return numOf(t).wrap(i) }

func roundFloat(f float64, t types.Type) float64 { return numOf(t).round(f) }

// constValue converts an SSA constant.
func constValue(c constant.Value, t types.Type) value {
	if c == nil {
		return zeroValue(t)
	}
	switch (c).Kind() {
	case constant.Bool:
		return boolv(constant.BoolVal(c))
	case constant.String:
		return strv(constant.StringVal(c))
	case constant.Int:
		if b := basicOf(t); b != nil && b.Info()&types.IsFloat != 0 {
			f, _ := constant.Float64Val(c)
			return floatv(f)
		}
		if i, ok := constant.Int64Val(c); ok {
			return intv(wrap(i, t))
		}
		u, _ := constant.Uint64Val(c)
		return intv(int64(u))
	case constant.Float:
		if b := basicOf(t); b != nil && b.Info()&types.IsComplex != 0 {
			f, _ := constant.Float64Val(c)
			return complexv(f, 0)
		}
		f, _ := constant.Float64Val(c)
		return floatv(roundFloat(f, t))
	case constant.Complex:
		re, _ := constant.Float64Val(constant.Real(c))
		im, _ := constant.Float64Val(constant.Imag(c))
		return complexv(re, im)
	}
	return unknown
}

// absorbed is an integer operation with one unknown operand whose result
// the known one decides: x % 1 and x % -1 are 0 (a rank's owner of row p
// at one rank, p % size, whatever p), x * 0 and x & 0 are 0.
func absorbed(op token.Token, x, y *value, t numType) value {
	if x.k != vInt && y.k != vInt {
		return unknown
	}
	switch {
	case op == token.REM && y.k == vInt && (y.i == 1 || y.i == -1 && !t.unsigned): // -1 of an unsigned type is its largest value
		return intv(0)
	case (op == token.MUL || op == token.AND) && (x.k == vInt && x.i == 0 || y.k == vInt && y.i == 0):
		return intv(0)
	}
	return unknown
}

// binop evaluates x op y for operands of type t (the type of x).
func binop(op token.Token, x, y *value, t numType) (value, error) {
	if !x.known() || !y.known() {
		return absorbed(op, x, y, t), nil
	}
	switch op {
	case token.EQL, token.NEQ:
		eq, ok := equal(*x, *y)
		if !ok {
			return unknown, nil
		}
		return boolv(eq == (op == token.EQL)), nil
	}
	switch x.k {
	case vInt:
		return intBinop(op, x.i, y.i, t)
	case vFloat:
		return floatBinop(op, x.fl(), y.fl(), t)
	case vBool:
		switch op {
		case token.AND, token.LAND:
			return boolv(x.i&y.i != 0), nil
		case token.OR, token.LOR:
			return boolv(x.i|y.i != 0), nil
		}
	case vString:
		switch op {
		case token.ADD:
			return strv(x.str() + y.str()), nil
		case token.LSS:
			return boolv(x.str() < y.str()), nil
		case token.LEQ:
			return boolv(x.str() <= y.str()), nil
		case token.GTR:
			return boolv(x.str() > y.str()), nil
		case token.GEQ:
			return boolv(x.str() >= y.str()), nil
		}
	case vComplex:
		a, b := complex(x.fl(), x.im()), complex(y.fl(), y.im())
		var r complex128
		switch op {
		case token.ADD:
			r = a + b
		case token.SUB:
			r = a - b
		case token.MUL:
			r = a * b
		case token.QUO:
			r = a / b
		default:
			return unknown, nil
		}
		return complexv(real(r), imag(r)), nil
	}
	return unknown, nil
}

// intFast evaluates the common operations on 64-bit signed integers; ok
// is false for the others (division by zero among them), which binop
// handles.
func intFast(op token.Token, a, b int64) (v value, ok bool) {
	switch op {
	case token.ADD:
		return intv(a + b), true
	case token.SUB:
		return intv(a - b), true
	case token.MUL:
		return intv(a * b), true
	case token.QUO:
		if b != 0 {
			return intv(a / b), true
		}
	case token.REM:
		if b != 0 {
			return intv(a % b), true
		}
	case token.EQL:
		return boolv(a == b), true
	case token.NEQ:
		return boolv(a != b), true
	case token.LSS:
		return boolv(a < b), true
	case token.LEQ:
		return boolv(a <= b), true
	case token.GTR:
		return boolv(a > b), true
	case token.GEQ:
		return boolv(a >= b), true
	}
	return value{}, false
}

func intBinop(op token.Token, a, b int64, t numType) (value, error) {
	u := t.unsigned
	switch op {
	case token.ADD:
		return intv(t.wrap(a + b)), nil
	case token.SUB:
		return intv(t.wrap(a - b)), nil
	case token.MUL:
		return intv(t.wrap(a * b)), nil
	case token.QUO, token.REM:
		if b == 0 {
			return unknown, errDivideByZero
		}
		var r int64
		switch {
		case u && op == token.QUO:
			r = int64(uint64(a) / uint64(b))
		case u:
			r = int64(uint64(a) % uint64(b))
		case op == token.QUO:
			r = a / b
		default:
			r = a % b
		}
		return intv(t.wrap(r)), nil
	case token.AND:
		return intv(a & b), nil
	case token.OR:
		return intv(a | b), nil
	case token.XOR:
		return intv(t.wrap(a ^ b)), nil
	case token.AND_NOT:
		return intv(a &^ b), nil
	case token.SHL:
		if uint64(b) >= 64 {
			return intv(0), nil
		}
		return intv(t.wrap(a << uint64(b))), nil
	case token.SHR:
		if u {
			if uint64(b) >= 64 {
				return intv(0), nil
			}
			return intv(int64(uint64(a) >> uint64(b))), nil
		}
		return intv(a >> min(uint64(b), 63)), nil
	case token.LSS:
		if u {
			return boolv(uint64(a) < uint64(b)), nil
		}
		return boolv(a < b), nil
	case token.LEQ:
		if u {
			return boolv(uint64(a) <= uint64(b)), nil
		}
		return boolv(a <= b), nil
	case token.GTR:
		if u {
			return boolv(uint64(a) > uint64(b)), nil
		}
		return boolv(a > b), nil
	case token.GEQ:
		if u {
			return boolv(uint64(a) >= uint64(b)), nil
		}
		return boolv(a >= b), nil
	}
	return unknown, nil
}

func floatBinop(op token.Token, a, b float64, t numType) (value, error) {
	switch op {
	case token.ADD:
		return floatv(t.round(a + b)), nil
	case token.SUB:
		return floatv(t.round(a - b)), nil
	case token.MUL:
		return floatv(t.round(a * b)), nil
	case token.QUO:
		return floatv(t.round(a / b)), nil
	case token.LSS:
		return boolv(a < b), nil
	case token.LEQ:
		return boolv(a <= b), nil
	case token.GTR:
		return boolv(a > b), nil
	case token.GEQ:
		return boolv(a >= b), nil
	}
	return unknown, nil
}

// equal is x == y for two known values of one type; ok is false when the
// values do not say (a part unknown, pointers at an unknown index,
// interfaces of unknown dynamic type, arrays of more than
// maxEqualCells elements).
func equal(x, y value) (eq, ok bool) {
	if x.k != y.k {
		// Of one type, kinds differ only for nil against a non-nil
		// pointer, slice, map, function, interface or handle.
		return false, x.k == vNil || y.k == vNil
	}
	switch x.k {
	case vInt, vBool:
		return x.i == y.i, true
	case vFloat:
		return x.fl() == y.fl(), true
	case vComplex:
		return x.fl() == y.fl() && x.im() == y.im(), true
	case vString:
		return x.str() == y.str(), true
	case vNil:
		return true, true
	case vPtr:
		if x.obj == nil || y.obj == nil {
			return false, false
		}
		if x.obj != y.obj {
			return false, true
		}
		if x.c < 0 || y.c < 0 {
			return false, false
		}
		return x.i == y.i, true
	case vOpaque:
		return x.str() == y.str() && x.i == y.i, true
	case vIface:
		if x.obj == nil || y.obj == nil || x.obj.t == nil || y.obj.t == nil {
			return false, false
		}
		if !types.Identical(x.obj.t, y.obj.t) {
			return false, true
		}
		a, b := x.obj.get(0), y.obj.get(0)
		if !a.known() || !b.known() {
			return false, false
		}
		return equal(a, b)
	case vStruct:
		// Structs hold every field in dense, in order.
		if x.obj == nil || y.obj == nil || len(x.obj.cells) > 0 || len(y.obj.cells) > 0 || len(x.obj.dense) != len(y.obj.dense) {
			return false, false
		}
		return equalCells(x.obj, y.obj, 0, 0, int64(len(x.obj.dense)))
	case vArray:
		if x.obj == nil || y.obj == nil || x.n != y.n || x.n > maxEqualCells {
			return false, false
		}
		return equalCells(x.obj, y.obj, 0, 0, x.n)
	}
	return false, false
}

// maxEqualCells bounds the arrays compared element by element.
const maxEqualCells = 1024

// equalCells compares n cells of a from i with those of b from j: false
// as soon as two known cells differ, unknown if none does and one is
// unknown.
func equalCells(a, b *object, i, j, n int64) (eq, ok bool) {
	ok = true
	for k := range n {
		u, v := a.get(i+k), b.get(j+k)
		if !u.known() || !v.known() {
			ok = false
			continue
		}
		e, known := equal(u, v)
		if known && !e {
			return false, true
		}
		ok = ok && known
	}
	return ok, ok
}

// convert converts x from type from to type to.
func convert(x value, from, to types.Type) value {
	if !x.known() {
		return unknown
	}
	tb := basicOf(to)
	if tb == nil {
		if st, ok := to.Underlying().(*types.Slice); ok && x.k == vString {
			return stringToSlice(x.str(), st.Elem())
		}
		return x
	}
	switch {
	case tb.Info()&types.IsInteger != 0:
		switch x.k {
		case vInt:
			return intv(wrap(x.i, to))
		case vFloat:
			if math.IsNaN(x.fl()) || math.IsInf(x.fl(), 0) {
				return unknown
			}
			if tb.Info()&types.IsUnsigned != 0 && x.fl() >= 1<<63 {
				return intv(wrap(int64(uint64(x.fl())), to))
			}
			return intv(wrap(int64(x.fl()), to))
		}
	case tb.Info()&types.IsFloat != 0:
		switch x.k {
		case vInt:
			if isUnsigned(from) {
				return floatv(roundFloat(float64(uint64(x.i)), to))
			}
			return floatv(roundFloat(float64(x.i), to))
		case vFloat:
			return floatv(roundFloat(x.fl(), to))
		}
	case tb.Info()&types.IsComplex != 0:
		if x.k == vComplex {
			return x
		}
	case tb.Info()&types.IsString != 0:
		switch x.k {
		case vString:
			return x
		case vInt:
			return strv(string(rune(x.i)))
		case vSlice:
			return sliceToString(x, from)
		}
	}
	return unknown
}

// maxStringCells bounds the slices converted to known strings: a lazily
// allocated buffer of a gigabyte is not read cell by cell.
const maxStringCells = 1 << 20

// sliceToString is string(x) for x a []byte or []rune (from) whose
// elements are known.
func sliceToString(x value, from types.Type) value {
	st, ok := from.Underlying().(*types.Slice)
	if !ok || x.n > maxStringCells {
		return unknown
	}
	runes := isRune(st.Elem())
	var b strings.Builder
	for j := range x.n {
		c := x.obj.get(x.i + j)
		if c.k != vInt {
			return unknown
		}
		if runes {
			b.WriteRune(rune(c.i))
		} else {
			b.WriteByte(byte(c.i))
		}
	}
	return strv(b.String())
}

// stringToSlice is []byte(s) or []rune(s) (elem byte or rune): a new
// slice of s's bytes or code points.
func stringToSlice(s string, elem types.Type) value {
	o := newObject(intv(0), elem)
	var n int64
	if isRune(elem) {
		for _, r := range s {
			o.set(n, intv(int64(r)))
			n++
		}
	} else {
		for i := range len(s) {
			o.set(int64(i), intv(int64(s[i])))
		}
		n = int64(len(s))
	}
	return value{k: vSlice, obj: o, n: n, c: n}
}

// isRune reports whether t is rune (int32), the element of []rune.
func isRune(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Int32
}

func unop(op token.Token, x value, t types.Type) value {
	if !x.known() {
		return unknown
	}
	switch op {
	case token.SUB:
		switch x.k {
		case vInt:
			return intv(wrap(-x.i, t))
		case vFloat:
			return floatv(-x.fl())
		case vComplex:
			return complexv(-x.fl(), -x.im())
		}
	case token.NOT:
		return boolv(x.i == 0)
	case token.XOR:
		return intv(wrap(^x.i, t))
	}
	return unknown
}
