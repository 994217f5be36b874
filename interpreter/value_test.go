package interpreter

import (
	"encoding/binary"
	"go/token"
	"go/types"
	"math"
	"strings"
	"testing"
)

// Cells written in order from 0 go to the dense slice, others to the map;
// reads must not depend on where a cell went.
func TestObjectCells(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []int64
	}{
		{"in order", []int64{0, 1, 2, 3}},
		{"reverse", []int64{3, 2, 1, 0}},
		{"gap then fill", []int64{0, 2, 1, 3}},
		{"negative and far", []int64{-1, 0, 1 << 40, 1}},
		{"rewrite", []int64{0, 1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newObject(intv(-7), nil)
			want := map[int64]int64{}
			for n, i := range tc.writes {
				o.set(i, intv(int64(100+n)))
				want[i] = int64(100 + n)
			}
			for _, i := range []int64{-1, 0, 1, 2, 3, 4, 1 << 40} {
				w, ok := want[i]
				if !ok {
					w = -7
				}
				if got := o.get(i); got.k != vInt || got.i != w {
					t.Errorf("cell %d = %v, want %d", i, got, w)
				}
			}
			c := copyValue(value{k: vArray, obj: o})
			c.obj.set(0, intv(42))
			if o.get(0).i == 42 && want[0] != 42 {
				t.Error("copy shares cells with the original")
			}
			o.havoc()
			if o.get(0).known() || o.get(3).known() {
				t.Error("havoc left known cells")
			}
		})
	}
}

func TestFloatAndComplexValues(t *testing.T) {
	for _, f := range []float64{0, -1.5, 3e300, 1e-300} {
		if v := floatv(f); v.fl() != f {
			t.Errorf("floatv(%g).fl() = %g", f, v.fl())
		}
	}
	c := complexv(1.5, -2)
	if c.fl() != 1.5 || c.im() != -2 {
		t.Errorf("complexv(1.5, -2) = %v", c)
	}
	// Map keys compare floats by value: -0 and 0 are one key.
	zero, _ := keyOf(floatv(0))
	negZero, _ := keyOf(value{k: vFloat, i: -1 << 63}) // the bits of -0
	if zero != negZero {
		t.Error("0 and -0 are different map keys")
	}
}

// What a call through a closure or an interface may write is the memory
// its free variables or its dynamic value point to: havocReach forgets
// that memory, and keeps the closure's and the interface's own cells.
func TestHavocReachesThroughClosuresAndInterfaces(t *testing.T) {
	counter := newObject(intv(0), nil) // a captured variable
	closure := value{k: vFunc, obj: newDense(value{k: vPtr, obj: counter})}
	havocReach(closure, 0)
	if counter.get(0).known() {
		t.Error("the closure's captured variable stays known")
	}
	if c := closure.obj.get(0); c.k != vPtr || c.obj != counter {
		t.Errorf("the closure's free variable became %v", c)
	}

	box := newObject(intv(3), nil) // what the interface's pointer points to
	iface := value{k: vIface, obj: newDense(value{k: vPtr, obj: box})}
	havocReach(iface, 0)
	if box.get(0).known() {
		t.Error("the interface's dynamic value's memory stays known")
	}
	if c := iface.obj.get(0); c.k != vPtr || c.obj != box {
		t.Errorf("the interface's dynamic value became %v", c)
	}
}

// TestEqual: == on known values is known only where the values decide it:
// a struct with an unknown field, a huge array or an interface of unknown
// dynamic type compares unknown rather than unequal.
func TestEqual(t *testing.T) {
	intT, strT := types.Typ[types.Int], types.Typ[types.String]
	a, b := newObject(intv(0), nil), newObject(intv(0), nil)
	st := func(x int64) value {
		o := newObject(unknown, nil)
		o.set(0, intv(x))
		return value{k: vStruct, obj: o}
	}
	for _, tc := range []struct {
		name   string
		x, y   value
		eq, ok bool
	}{
		{"ints", intv(3), intv(3), true, true},
		{"strings", strv("a"), strv("b"), false, true},
		{"nil nil", value{k: vNil}, value{k: vNil}, true, true},
		{"pointer nil", value{k: vPtr, obj: a}, value{k: vNil}, false, true},
		{"same cell", value{k: vPtr, obj: a, i: 2}, value{k: vPtr, obj: a, i: 2}, true, true},
		{"other object", value{k: vPtr, obj: a}, value{k: vPtr, obj: b}, false, true},
		{"unknown index", value{k: vPtr, obj: a, c: -1}, value{k: vPtr, obj: a, i: 1}, false, false},
		{"ifaces equal", ifaceOf(intv(1), intT), ifaceOf(intv(1), intT), true, true},
		{"ifaces other type", ifaceOf(intv(1), intT), ifaceOf(strv("1"), strT), false, true},
		{"iface unknown type", value{k: vIface, obj: newObject(unknown, nil)}, ifaceOf(intv(1), intT), false, false},
		{"iface nil", ifaceOf(intv(1), intT), value{k: vNil}, false, true},
		{"structs", st(1), st(1), true, true},
		{"structs differ", st(1), st(2), false, true},
		{"struct unknown field", st(1), value{k: vStruct, obj: newObject(unknown, nil).with(unknown)}, false, false},
		{"arrays", value{k: vArray, n: 3, obj: newObject(intv(0), nil)}, value{k: vArray, n: 3, obj: newObject(intv(0), nil)}, true, true},
		{"huge arrays", value{k: vArray, n: 1 << 30, obj: newObject(intv(0), nil)}, value{k: vArray, n: 1 << 30, obj: newObject(intv(0), nil)}, false, false},
	} {
		eq, ok := equal(tc.x, tc.y)
		if eq != tc.eq || ok != tc.ok {
			t.Errorf("%s: equal = %v, %v; want %v, %v", tc.name, eq, ok, tc.eq, tc.ok)
		}
		if v, _ := binop(token.NEQ, &tc.x, &tc.y, numType{}); tc.ok != v.known() || tc.ok && (v.i != 0) == tc.eq {
			t.Errorf("%s: != gives %v", tc.name, v)
		}
	}
}

// with sets the next dense cell of o to v.
func (o *object) with(v value) *object {
	o.set(int64(len(o.dense)), v)
	return o
}

// TestFormat: fmt's text is made where every operand is a known value of a
// type without methods, as fmt makes it.
func TestFormat(t *testing.T) {
	ops := func(vs ...value) value {
		o := newObject(unknown, nil)
		for i, v := range vs {
			o.set(int64(i), v)
		}
		return value{k: vSlice, obj: o, n: int64(len(vs)), c: int64(len(vs))}
	}
	named := types.NewNamed(types.NewTypeName(0, nil, "dur", nil), types.Typ[types.Int64], nil)
	stringer := types.NewNamed(types.NewTypeName(0, nil, "level", nil), types.Typ[types.Int], nil)
	stringer.AddMethod(types.NewFunc(0, nil, "String", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "", types.Typ[types.String])), false)))
	for _, tc := range []struct {
		name string
		args []value
		want string
		ok   bool
	}{
		{"fmt.Sprintf", []value{strv("%d rows, %.2f s, %s, %v"), ops(ifaceOf(intv(-3), types.Typ[types.Int]), ifaceOf(floatv(1.5), types.Typ[types.Float64]), ifaceOf(strv("x"), types.Typ[types.String]), ifaceOf(boolv(true), types.Typ[types.Bool]))}, "-3 rows, 1.50 s, x, true", true},
		{"fmt.Sprintf", []value{strv("%x"), ops(ifaceOf(intv(255), types.Typ[types.Uint8]))}, "ff", true},
		{"fmt.Sprint", []value{ops(ifaceOf(floatv(float64(float32(0.1))), types.Typ[types.Float32]))}, "0.1", true},
		{"fmt.Println", []value{ops(ifaceOf(intv(7), named), ifaceOf(strv("a"), types.Typ[types.String]))}, "7 a\n", true},
		{"fmt.Fprintf", []value{unknown, strv("%v"), ops(ifaceOf(intv(1), stringer))}, "", false},
		{"fmt.Sprintf", []value{strv("%d"), ops(ifaceOf(unknown, types.Typ[types.Int]))}, "", false},
		{"fmt.Sprintf", []value{unknown, ops()}, "", false},
	} {
		got, ok := format(tc.name, tc.args)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s%v = %q, %v; want %q, %v", tc.name, tc.args, got, ok, tc.want, tc.ok)
		}
	}
}

// ifaceOf is an interface value holding v of dynamic type t.
func ifaceOf(v value, t types.Type) value {
	o := newObject(unknown, nil)
	o.set(0, v)
	o.t = t
	return value{k: vIface, obj: o}
}

// A profiled Bcast's payload decodes as the buffer's element type, and
// only when it holds as many elements as the buffer (one count per rank
// profiled at P = 1 is not four counts at P = 4).
func TestBroadcastValues(t *testing.T) {
	le := func(vals ...uint64) []byte {
		var b []byte
		for _, v := range vals {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	neg := int64(-3)
	for _, tc := range []struct {
		data []byte
		elem types.Type
		n    int64
		want string // values as the interpreter prints them; "" refused
	}{
		{le(2000000, 40), types.Typ[types.Int], 2, "2000000 40"},
		{le(uint64(neg)), types.Typ[types.Int], 1, "-3"},
		{le(math.Float64bits(0.25)), types.Typ[types.Float64], 1, "0.25"},
		{binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), types.Typ[types.Float32], 1, "1.5"},
		{binary.LittleEndian.AppendUint32(nil, uint32(0xfffffffe)), types.Typ[types.Int32], 1, "-2"},
		{[]byte{200}, types.Typ[types.Uint8], 1, "200"},
		{le(400000), types.Typ[types.Int], 4, ""},  // one count profiled, four wanted
		{le(1, 2), types.Typ[types.Int32], 2, ""},  // 16 bytes are not two int32s
		{le(1), types.Typ[types.Complex64], 1, ""}, // not a type it decodes
	} {
		vals, ok := broadcastValues(tc.data, tc.elem, tc.n)
		got := ""
		if ok {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = v.String()
			}
			got = strings.Join(parts, " ")
		}
		if got != tc.want {
			t.Errorf("%d bytes as %d x %s: %q, want %q", len(tc.data), tc.n, tc.elem, got, tc.want)
		}
	}
}

// TestCopyOfUnknownRows copies rows of unknown elements (a gathered
// image) into a zeroed array one row at a time, as mandelbrot's placeRows
// does: the copied cells read unknown, the array never holds much more
// than smallCopy cells of its own, and a short copy keeps the known
// cells around it.
func TestCopyOfUnknownRows(t *testing.T) {
	const w, rows = 512, 64
	r := &ssaRank{}
	gathered := value{k: vSlice, n: w * rows, obj: newObject(unknown, nil)}
	image := value{k: vSlice, n: w * rows, obj: newObject(intv(0), nil)}
	// One row: copied cell by cell, the rest of the image still zero.
	r.copyValues(value{k: vSlice, i: w, n: w, obj: image.obj}, value{k: vSlice, n: w, obj: gathered.obj})
	if image.obj.get(w).known() || image.obj.get(2*w-1).known() {
		t.Error("a copied cell reads known")
	}
	if v := image.obj.get(2 * w); v.k != vInt || v.i != 0 {
		t.Errorf("the cell after the copied row reads %v, want 0", v)
	}
	for y := range rows {
		row := value{k: vSlice, i: int64(y * w), n: w, obj: image.obj}
		if n := r.copyValues(row, value{k: vSlice, i: int64(y * w), n: w, obj: gathered.obj}); n.k != vInt || n.i != w {
			t.Fatalf("row %d: copy returned %v, want %d", y, n, w)
		}
		if held := len(image.obj.dense) + len(image.obj.cells); held > smallCopy+w {
			t.Fatalf("row %d: the image holds %d cells of its own, want at most %d", y, held, smallCopy+w)
		}
	}
	for _, i := range []int64{0, w*rows/2 + 3, w*rows - 1} {
		if image.obj.get(i).known() {
			t.Errorf("cell %d reads known after every row was copied from unknown data", i)
		}
	}
}

// TestAppendOfUnknownRows packs the rows of a received block by append,
// as a rank does before a Gatherv: the packed slice keeps its length, and
// it does not grow a cell per element once it holds smallCopy of them.
func TestAppendOfUnknownRows(t *testing.T) {
	const w, rows = 512, 64
	r := &ssaRank{}
	f64 := types.Typ[types.Float64]
	block := newObject(unknown, nil)
	packed := value{k: vSlice, c: w * rows, obj: newObject(floatv(0), f64)}
	for y := range rows {
		row := value{k: vSlice, i: int64(y * w), n: w, c: w, obj: block}
		packed = r.appendValues(f64, packed, row)
		if packed.k != vSlice || packed.n != int64((y+1)*w) {
			t.Fatalf("row %d: append gave %v, want a slice of %d elements", y, packed, (y+1)*w)
		}
		if held := len(packed.obj.dense) + len(packed.obj.cells); held > 0 {
			t.Fatalf("row %d: the packed slice holds %d cells of its own, want none", y, held)
		}
	}
	for _, i := range []int64{0, w*rows/2 + 3, w*rows - 1} {
		if packed.obj.get(i).known() {
			t.Errorf("element %d reads known after unknown rows were appended", i)
		}
	}
	// A row longer than smallCopy keeps the slice and its length too.
	long := r.appendValues(f64, value{k: vSlice, obj: newObject(floatv(0), f64)}, value{k: vSlice, n: 3 * smallCopy, c: 3 * smallCopy, obj: block})
	if long.k != vSlice || long.n != 3*smallCopy || long.obj.get(smallCopy).known() {
		t.Errorf("appending %d unknown elements to an empty slice gave %v, want a slice of that length, unknown", 3*smallCopy, long)
	}
	// Known elements before the unknown ones stay known.
	pre := r.appendValues(f64, value{k: vSlice, c: 8, obj: newObject(floatv(0), f64)}, value{k: vSlice, n: 2, c: 2, obj: newDense(floatv(5), floatv(6))})
	pre = r.appendValues(f64, value{k: vSlice, n: 3, c: 8, obj: pre.obj}, value{k: vSlice, n: 3, c: 3, obj: block})
	if v0, v2, v3 := pre.obj.get(0), pre.obj.get(2), pre.obj.get(3); pre.n != 6 || v0.fl() != 5 || v2.k != vFloat || v2.fl() != 0 || v3.known() {
		t.Errorf("5, 6, 0 then 3 unknown: %v reads %v, %v, %v at 0, 2, 3; want 5, 0, unknown", pre, v0, v2, v3)
	}
	// Known rows are still appended element by element.
	known := value{k: vSlice, n: 2, c: 2, obj: newDense(floatv(1), floatv(2))}
	small := r.appendValues(f64, value{k: vSlice, c: 4, obj: newObject(floatv(0), f64)}, known)
	if v := small.obj.get(1); small.n != 2 || v.k != vFloat || v.fl() != 2 {
		t.Errorf("appending known values gave %v with element 1 = %v, want 2 elements ending in 2", small, v)
	}
	// More than smallCopy known elements are appended as unknown ones:
	// the slice keeps its length (it had become unknown as a whole).
	many := newObject(floatv(1), f64)
	many.set(0, floatv(3))
	big := r.appendValues(f64, value{k: vSlice, c: 2 * smallCopy, obj: newObject(floatv(0), f64)}, value{k: vSlice, n: 2 * smallCopy, c: 2 * smallCopy, obj: many})
	if big.k != vSlice || big.n != 2*smallCopy || big.obj.get(0).known() {
		t.Errorf("appending %d known elements to an empty slice gave %v, want a slice of that length, unknown", 2*smallCopy, big)
	}
}

// TestAbsorbedOperations: an integer operation with an unknown operand
// is known where the other decides it (p % 1 at one rank, whatever the
// pivot p), unknown otherwise.
func TestAbsorbedOperations(t *testing.T) {
	u := unknown
	for _, c := range []struct {
		op    token.Token
		x, y  value
		known bool
	}{
		{token.REM, u, intv(1), true},
		{token.REM, u, intv(-1), true},
		{token.MUL, u, intv(0), true},
		{token.MUL, intv(0), u, true},
		{token.AND, u, intv(0), true},
		{token.REM, u, intv(2), false},
		{token.REM, intv(1), u, false},
		{token.ADD, u, intv(0), false},
		{token.MUL, u, floatv(0), false},
	} {
		got, err := binop(c.op, &c.x, &c.y, numType{})
		if err != nil {
			t.Fatal(err)
		}
		if got.known() != c.known || c.known && (got.k != vInt || got.i != 0) {
			t.Errorf("%v %v %v = %v, want known %v (0)", c.x, c.op, c.y, got, c.known)
		}
	}
	// x % math.MaxUint64 is not 0.
	if got, _ := binop(token.REM, &u, &value{k: vInt, i: -1}, numType{unsigned: true}); got.known() {
		t.Errorf("unknown %% MaxUint64 = %v, want unknown", got)
	}
}
