// Command semantics is interpreter test input: it computes values with
// many of Go's constructs and checks each against what Go gives (the
// program runs for real without a failed check). A value the interpreter
// computes wrongly, but believes known, fails a check there: the check's
// panic names it. Every check is on values the interpreter knows: one it
// cannot know stops the test's simulation at the check (no frequency).
package main

import (
	"errors"
	"iter"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

type vec struct{ x, y int }

func (v vec) add(w vec) vec  { return vec{v.x + w.x, v.y + w.y} }
func (v *vec) scale(k int)   { v.x *= k; v.y *= k }
func (v vec) String() string { return strconv.Itoa(v.x) + "," + strconv.Itoa(v.y) }
func sum(xs ...int) (s int) {
	for _, x := range xs {
		s += x
	}
	return
}
func divmod(a, b int) (int, int) { return a / b, a % b }

type shape interface{ area() int }
type rect struct{ w, h int }
type sq int

func (r rect) area() int { return r.w * r.h }
func (s sq) area() int   { return int(s) * int(s) }

func maxOf[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("recovered")
		}
	}()
	return a / b, nil
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		n := c.Size() + 6 // 7 at one rank: known, not a constant
		integers(n)
		floats(n)
		stringsAndBytes(n)
		slicesAndMaps(n)
		structsAndInterfaces(n)
		control(n)
		more(n)
		generics(n)
		c.Barrier()
	})
}

func integers(n int) {
	if !(-n/2 == -3 && -n%2 == -1) {
		panic("wrong: division truncates toward zero")
	}
	var b uint8 = uint8(n * 40) // 280 wraps to 24
	if !(b == 24) {
		panic("wrong: uint8 wraps")
	}
	var i32 int32 = math.MaxInt32
	i32 += int32(n - 6)
	if !(i32 == math.MinInt32) {
		panic("wrong: int32 overflows")
	}
	if !(n<<62>>62 == -1) {
		panic("wrong: shifts of int keep the sign")
	}
	if !(uint(n)>>1 == 3 && n&^5 == 2 && n^3 == 4) {
		panic("wrong: bit operations")
	}
	q, r := divmod(n*3, 4)
	if !(q == 5 && r == 1) {
		panic("wrong: two results")
	}
	if !(sum(1, 2, n) == 10 && sum() == 0) {
		panic("wrong: variadic")
	}
	if !(min(n, 3, 9) == 3 && max(n, 3, 9) == 9) {
		panic("wrong: min and max")
	}
	if !(maxOf(n, 2) == 7 && maxOf(1.5, float64(n)) == 7) {
		panic("wrong: generic function")
	}
}

func floats(n int) {
	f := float64(n) / 2
	if !(f == 3.5 && int(f) == 3 && int(-f) == -3) {
		panic("wrong: float to int truncates")
	}
	if !(math.Sqrt(float64(n*n)) == 7 && math.Floor(-f) == -4) {
		panic("wrong: math")
	}
	nan := math.NaN()
	if !(nan != nan && !(nan < 1) && !(nan >= 1)) {
		panic("wrong: NaN compares unequal")
	}
	var f32 float32 = 0.1
	if !(float64(f32) != 0.1 && float64(float32(f)) == 3.5) {
		panic("wrong: float32 rounds")
	}
	if !(math.Inf(1) > math.MaxFloat64 && 1/math.Inf(-1) == 0) {
		panic("wrong: infinities")
	}
	// math/bits: a hypercube's dimension bounds the loop of its exchanges.
	size := uint(n + 1) // 8
	if d := bits.TrailingZeros(size); d != 3 || bits.Len(size) != 4 || bits.OnesCount(size-1) != 3 {
		panic("wrong: math/bits counts")
	}
	if bits.LeadingZeros8(uint8(size)) != 4 || bits.LeadingZeros64(0) != 64 || bits.TrailingZeros16(0) != 16 ||
		bits.LeadingZeros32(uint32(size)) != 28 || bits.OnesCount8(uint8(n)*37) != 2 {
		panic("wrong: math/bits widths")
	}
	steps := 0
	for k := 0; k < bits.TrailingZeros(size); k++ {
		steps++
	}
	if steps != 3 {
		panic("wrong: loop bounded by bits.TrailingZeros")
	}
}

func stringsAndBytes(n int) {
	s := "héllo" + strconv.Itoa(n)
	if !(len(s) == 7 && s[1] == 0xc3 && s[6] == '7') {
		panic("wrong: strings index bytes")
	}
	runes, last := 0, rune(0)
	for _, r := range s {
		runes++
		last = r
	}
	if !(runes == 6 && last == '7') {
		panic("wrong: range over a string yields runes")
	}
	bs := []byte(s)
	bs[0] = 'H'
	if !(s[0] == 'h' && string(bs[:1]) == "H") {
		panic("wrong: []byte copies")
	}
	if !(strings.Repeat("ab", n-5) == "abab") {
		panic("wrong: strings.Repeat")
	}
	if !(strings.EqualFold(s, "HÉLLO7") && strings.Count(s, "l") == 2 && strings.LastIndex(s, "l") == 4 &&
		strings.Compare(s, "hello") == 1 && strings.TrimPrefix(s, "hé") == "llo7" && strings.TrimSuffix(s, "7") == "héllo") {
		panic("wrong: strings functions")
	}
	if !(s[3:5] == "ll" && s[:3] < s[3:]) {
		panic("wrong: substrings")
	}
	x, err := strconv.Atoi("4" + strconv.Itoa(n))
	if !(x == 47 && err == nil) {
		panic("wrong: strconv")
	}
	_, err = strconv.Atoi("x")
	if !(err != nil) {
		panic("wrong: strconv error")
	}
}

func slicesAndMaps(n int) {
	a := make([]int, 3, 10)
	b := append(a, n)  // shares a's array
	c := append(a, -n) // overwrites b[3]
	if !(b[3] == -n && c[3] == -n && len(a) == 3) {
		panic("wrong: append within capacity shares the array")
	}
	d := append(a[:3:3], 1) // full slice expression: a new array
	d[0] = 9
	if !(a[0] == 0 && d[0] == 9) {
		panic("wrong: three-index slice")
	}
	e := []int{1, 2, 3, 4, 5}
	copy(e[1:], e) // overlapping copy
	if !(e[1] == 1 && e[4] == 4) {
		panic("wrong: copy overlaps like memmove")
	}
	var arr [3]int
	arr2 := arr
	arr2[0] = n
	if !(arr[0] == 0 && arr2[0] == 7) {
		panic("wrong: arrays are values")
	}
	m := map[string]int{"a": 1}
	m["b"] = n
	m["a"] += 2
	v, ok := m["z"]
	if !(m["a"] == 3 && m["b"] == 7 && v == 0 && !ok && len(m) == 2) {
		panic("wrong: maps")
	}
	delete(m, "a")
	if !(len(m) == 1) {
		panic("wrong: delete")
	}
	total := 0
	for _, v := range m {
		total += v
	}
	if !(total == 7) {
		panic("wrong: range over a map")
	}
	clear(e)
	if !(e[2] == 0 && len(e) == 5) {
		panic("wrong: clear")
	}
	var grid [2][2]int
	grid[1][0] = n
	g2 := grid
	g2[1][0] = 1
	if !(grid[1][0] == 7) {
		panic("wrong: nested arrays are values")
	}
}

func structsAndInterfaces(n int) {
	v := vec{1, 2}
	w := v
	w.x = n
	if !(v.x == 1 && v.add(w) == vec{8, 4}) {
		panic("wrong: struct values")
	}
	p := &v
	p.scale(n)
	if !(v.x == 7 && v.y == 14) {
		panic("wrong: pointer receiver")
	}
	f := v.add // method value binds a copy of v
	v.x = 0
	if !(f(vec{}).x == 7) {
		panic("wrong: method value")
	}
	py := &v.y
	*py = 1
	if !(v.y == 1) {
		panic("wrong: pointer to a field")
	}
	shapes := []shape{rect{2, n}, sq(3)}
	total := 0
	for _, s := range shapes {
		total += s.area()
	}
	if !(total == 23) {
		panic("wrong: interface calls")
	}
	kind := ""
	for _, s := range shapes {
		switch t := s.(type) {
		case rect:
			kind += "r" + strconv.Itoa(t.h)
		case sq:
			kind += "s"
		}
	}
	if !(kind == "r7s") {
		panic("wrong: type switch")
	}
	var any interface{} = vec{1, 1}
	_, isVec := any.(vec)
	_, isStr := any.(string)
	if !(isVec && !isStr) {
		panic("wrong: comma-ok assertions")
	}
	var e1, e2 interface{} = n, 7
	if !(e1 == e2 && any != e1) {
		panic("wrong: interface equality")
	}
	st := fmtStringer(vec{n, 0})
	if !(st == "7,0") {
		panic("wrong: Stringer through an interface")
	}
}

type stringer interface{ String() string }

func fmtStringer(s stringer) string { return s.String() }

func control(n int) {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * n })
	}
	if !(fs[0]() == 0 && fs[2]() == 14) {
		panic("wrong: loop variables are per iteration")
	}
	order := ""
	func() {
		for i := 0; i < 3; i++ {
			defer func() { order += strconv.Itoa(i) }()
		}
	}()
	if !(order == "210") {
		panic("wrong: defers run last first")
	}
	q, err := safeDiv(n, n-7)
	if !(q == 0 && err != nil) {
		panic("wrong: recover from a division by zero")
	}
	found := -1
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i*j == 12 {
				found = i*10 + j
				break outer
			}
			if j > i {
				continue outer
			}
		}
	}
	if !(found == 34) {
		panic("wrong: labelled break and continue")
	}
	s := 0
	switch {
	case n > 5:
		s += 1
		fallthrough
	case n > 100:
		s += 10
	default:
		s += 100
	}
	if !(s == 11) {
		panic("wrong: fallthrough")
	}
	k := 0
loop:
	if k < n {
		k += 2
		goto loop
	}
	if !(k == 8) {
		panic("wrong: goto")
	}
	cnt := 0
	for i := range n {
		cnt += i
	}
	if !(cnt == 21) {
		panic("wrong: range over an int")
	}
}

type base struct{ id int }

func (b base) ident() int       { return b.id }
func (b *base) bump()           { b.id++ }
func (b base) describe() string { return "base" }

type derived struct {
	base
	name string
}

func (d derived) describe() string { return "derived " + d.base.describe() }

type celsius float64

func named() (x int, err error) {
	defer func() { x *= 2 }()
	x = 21
	return x, nil
}

func more(n int) {
	d := derived{base{n}, "d"}
	d.bump()
	if !(d.ident() == 8 && d.id == 8 && d.describe() == "derived base") {
		panic("wrong: embedded fields and promoted methods")
	}
	count := 0
	inc := func() { count += n }
	inc()
	inc()
	if !(count == 14) {
		panic("wrong: closures share captured variables")
	}
	adder := func(k int) func(int) int { return func(x int) int { return x + k*n } }
	if !(adder(2)(1) == 15) {
		panic("wrong: nested closures")
	}
	var i8 int8 = int8(n * 20) // 140 wraps to -116
	var u64 uint64 = math.MaxUint64 - uint64(n)
	if !(i8 == -116 && u64/2 == 9223372036854775804 && u64%10 == 8) {
		panic("wrong: narrow and unsigned integers")
	}
	var u uint = uint(n)
	if !(u<<70 == 0 && ^u == math.MaxUint-7 && -n>>1 == -4 && ^n == -8) {
		panic("wrong: large shifts and complements")
	}
	a, b := n, 3
	a, b = b, a
	if !(a == 3 && b == 7) {
		panic("wrong: parallel assignment")
	}
	xs := []int{1, 2}
	xs = append(xs, xs...)
	if !(len(xs) == 4 && xs[3] == 2 && sum(xs...) == 6) {
		panic("wrong: append and spread a slice")
	}
	grid := make([][]int, 3)
	for i := range grid {
		grid[i] = make([]int, n)
		grid[i][i] = i + 1
	}
	if !(grid[2][2] == 3 && grid[1][2] == 0 && len(grid[0]) == 7) {
		panic("wrong: slices of slices")
	}
	arr := [4]int{1, 2, 3, 4}
	pa := &arr
	total := 0
	for i, v := range pa {
		total += i * v
	}
	pa[0] = n
	if !(total == 20 && arr[0] == 7 && len(pa) == 4) {
		panic("wrong: pointer to array")
	}
	word := ""
	switch strconv.Itoa(n) {
	case "6", "7":
		word = "six or seven"
	default:
		word = "other"
	}
	if !(word == "six or seven") {
		panic("wrong: switch on strings")
	}
	t := celsius(n) * 2
	if !(float64(t) == 14 && t > 10) {
		panic("wrong: named types")
	}
	add := vec.add
	if !(add(vec{1, 1}, vec{n, 0}) == vec{8, 1}) {
		panic("wrong: method expression")
	}
	x, _ := named()
	if !(x == 42) {
		panic("wrong: defer changes a named result")
	}
	c := complex(float64(n), 1)
	c *= c
	if !(real(c) == 48 && imag(c) == 14) {
		panic("wrong: complex numbers")
	}
	ms := map[int]vec{1: {1, 2}}
	mv := ms[1]
	mv.x = n
	if !(ms[1].x == 1 && len(ms) == 1) {
		panic("wrong: map values are copies")
	}
	ps := []*vec{{1, 1}, {2, 2}}
	for _, p := range ps {
		p.x += n
	}
	if !(ps[0].x == 8 && ps[1].x == 9) {
		panic("wrong: pointers in a slice")
	}
	structs := [2]vec{}
	structs[1].y = n
	copyOf := structs
	copyOf[1].y = 0
	if !(structs[1].y == 7 && copyOf != structs) {
		panic("wrong: arrays of structs")
	}
	if !(math.IsNaN(min(math.NaN(), float64(n))) && max(-0.0, 0.0) == 0) {
		panic("wrong: min of NaN")
	}
}

type number interface{ ~int | ~float64 }

func total[T number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

type stack[T any] struct{ items []T }

func (s *stack[T]) push(x T) { s.items = append(s.items, x) }
func (s *stack[T]) pop() T {
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x
}

func upTo(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func generics(n int) {
	if !(total([]int{1, 2, n}) == 10 && total([]float64{0.5, 0.25}) == 0.75) {
		panic("wrong: generic sum")
	}
	var s stack[string]
	s.push("a")
	s.push(strconv.Itoa(n))
	if !(s.pop() == "7" && len(s.items) == 1) {
		panic("wrong: generic type")
	}
	acc := 0
	for i := range upTo(n) {
		if i == 5 {
			break
		}
		acc += i
	}
	if !(acc == 10) {
		panic("wrong: range over a function")
	}
}
