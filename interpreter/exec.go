package interpreter

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

var errDivideByZero = errors.New("integer divide by zero")

// ExecOptions configure the rank programs that execute SSA.
type ExecOptions struct {
	Args     []string // the program's command-line arguments (os.Args[1:])
	MaxSteps int64    // instructions per rank before giving up; 0: 2e9
}

// Assumption records a guess the interpreter had to make, for the report.
type Assumption struct {
	Pos  string
	What string
}

// ssaRank executes a program's SSA for one rank, suspending at every MPI
// call so that the simulator can order ranks in virtual time.
type ssaRank struct {
	shared *programShared
	rank   int
	size   int
	opts   ExecOptions

	stack   []*frame
	globals map[*ssa.Global]*object
	flags   *flagSet
	compute float64
	// distributed sums the modelled time of reduced nests whose iterations
	// are divided among the ranks.
	distributed float64
	steps       int64
	branch      map[*ssa.BasicBlock]float64 // error-diffusion state of profiled branches
	nextReq     int64
	await       *pendingCall // the MPI call whose completion Step is waiting for
}

// programShared is what all ranks of one simulation share.
type programShared struct {
	prog   *ssa.Program
	oracle Oracle
	infos  map[*ssa.Function]*fnInfo
	assume map[Assumption]bool
}

type fnInfo struct {
	index map[ssa.Value]int
	n     int
}

type frame struct {
	fn     *ssa.Function
	info   *fnInfo
	env    []value
	block  *ssa.BasicBlock
	pc     int
	defers []deferred
	call   *ssa.Call // in the caller: receives this frame's result
	onExit func()    // runs when the frame returns (mpi.Main's body: finish the rank)
}

type deferred struct {
	fn   value
	args []value
	site ssa.CallInstruction
}

func (s *programShared) info(fn *ssa.Function) *fnInfo {
	if fi, ok := s.infos[fn]; ok {
		return fi
	}
	fi := &fnInfo{index: map[ssa.Value]int{}}
	add := func(v ssa.Value) {
		fi.index[v] = fi.n
		fi.n++
	}
	for _, p := range fn.Params {
		add(p)
	}
	for _, fv := range fn.FreeVars {
		add(fv)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if v, ok := in.(ssa.Value); ok {
				add(v)
			}
		}
	}
	s.infos[fn] = fi
	return fi
}

func (r *ssaRank) assume(pos token.Pos, format string, args ...any) {
	a := Assumption{Pos: r.shared.prog.Fset.Position(pos).String(), What: fmt.Sprintf(format, args...)}
	r.shared.assume[a] = true
}

// errorf builds an error naming the position and the function being run.
// Instructions without a position (If, Jump) borrow the nearest earlier one
// in their block, else the function's.
func (r *ssaRank) errorf(pos token.Pos, format string, args ...any) error {
	if !pos.IsValid() && len(r.stack) > 0 {
		pos = r.nearestPos(r.top())
	}
	fn := "?"
	if len(r.stack) > 0 {
		fn = r.stack[len(r.stack)-1].fn.String()
	}
	return fmt.Errorf("%s: in %s: %s", r.shared.prog.Fset.Position(pos), fn, fmt.Sprintf(format, args...))
}

func (r *ssaRank) nearestPos(f *frame) token.Pos {
	if f.block != nil {
		for i := min(f.pc, len(f.block.Instrs)) - 1; i >= 0; i-- {
			in := f.block.Instrs[i]
			if in.Pos().IsValid() {
				return in.Pos()
			}
			if v, ok := in.(*ssa.If); ok && v.Cond.Pos().IsValid() {
				return v.Cond.Pos()
			}
		}
	}
	return f.fn.Pos()
}

func (r *ssaRank) top() *frame { return r.stack[len(r.stack)-1] }

// get evaluates an operand in frame f.
func (r *ssaRank) get(f *frame, v ssa.Value) value {
	switch v := v.(type) {
	case *ssa.Const:
		return constValue(v.Value, v.Type())
	case *ssa.Function:
		return value{k: vFunc, fn: v}
	case *ssa.Global:
		return value{k: vPtr, obj: r.global(v)}
	case *ssa.Builtin:
		return value{k: vFunc, s: v.Name()}
	}
	if i, ok := f.info.index[v]; ok {
		return f.env[i]
	}
	return unknown
}

func (r *ssaRank) set(f *frame, v ssa.Value, x value) { f.env[f.info.index[v]] = x }

func (r *ssaRank) global(g *ssa.Global) *object {
	if o, ok := r.globals[g]; ok {
		return o
	}
	elem := g.Type().(*types.Pointer).Elem()
	var o *object
	switch {
	case g.Pkg != nil && g.Pkg.Pkg.Path() == "os" && g.Name() == "Args":
		o = newObject(r.osArgs(), nil)
	case g.Pkg != nil && r.shared.oracle.IsUser(g.Pkg.Func("init")) || g.Pkg != nil && g.Pkg.Pkg.Name() == "main":
		o = newObject(zeroValue(elem), nil)
	default:
		o = newObject(unknownOf(elem), nil) // a library's state
	}
	r.globals[g] = o
	return o
}

func (r *ssaRank) osArgs() value {
	o := newObject(value{k: vString}, nil)
	o.set(0, value{k: vString, s: "program"})
	for i, a := range r.opts.Args {
		o.set(int64(i+1), value{k: vString, s: a})
	}
	n := int64(len(r.opts.Args) + 1)
	return value{k: vSlice, obj: o, n: n, c: n}
}

// pushCall starts a call of a user function.
func (r *ssaRank) pushCall(fn *ssa.Function, args []value, free *object, call *ssa.Call) error {
	if len(fn.Blocks) == 0 {
		return r.errorf(fn.Pos(), "function %s has no body (assembly or external)", fn)
	}
	fi := r.shared.info(fn)
	f := &frame{fn: fn, info: fi, env: make([]value, fi.n), call: call}
	for i, p := range fn.Params {
		if i < len(args) {
			f.env[fi.index[p]] = args[i]
		}
	}
	for i, fv := range fn.FreeVars {
		if free != nil {
			f.env[fi.index[fv]] = free.get(int64(i))
		}
	}
	r.stack = append(r.stack, f)
	return r.enter(f, nil, fn.Blocks[0])
}

// enter moves f to block b coming from pred (nil at function entry),
// evaluating b's phis and charging its cost, and skipping reduced nests.
func (r *ssaRank) enter(f *frame, pred, b *ssa.BasicBlock) error {
	for {
		if red := r.shared.oracle.Reduction(pred, b); red != nil && pred != nil {
			t, err := red.Time(func(v ssa.Value) (int64, bool) {
				x := r.get(f, v)
				return x.i, x.k == vInt
			})
			if err != nil {
				// The nest's time needs values it computes itself: run it.
				r.assume(b.Instrs[0].Pos(), "reduced nest %s executed instead: %v", red.ID, err)
				break
			}
			r.compute += t
			if red.Distributed {
				r.distributed += t
			}
			for _, w := range red.Writes {
				r.havocValue(r.get(f, w))
			}
			for _, nb := range red.Blocks {
				for _, in := range nb.Instrs {
					if v, ok := in.(ssa.Value); ok {
						r.set(f, v, unknownOf(v.Type()))
					}
				}
			}
			pred, b = red.ExitFrom, red.Exit
			continue
		}
		break
	}
	r.compute += r.shared.oracle.BlockCost(b)
	// Phis read their operands simultaneously.
	if pred != nil {
		edge := -1
		for i, p := range b.Preds {
			if p == pred {
				edge = i
				break
			}
		}
		var phis []*ssa.Phi
		var vals []value
		for _, in := range b.Instrs {
			phi, ok := in.(*ssa.Phi)
			if !ok {
				break
			}
			phis = append(phis, phi)
			if edge < 0 {
				vals = append(vals, unknownOf(phi.Type()))
			} else {
				vals = append(vals, r.get(f, phi.Edges[edge]))
			}
		}
		for i, phi := range phis {
			r.set(f, phi, vals[i])
		}
	}
	f.block, f.pc = b, 0
	return nil
}

// havocValue makes the memory v points to unknown.
func (r *ssaRank) havocValue(v value) {
	switch v.k {
	case vPtr, vSlice, vStruct, vArray, vMap:
		if v.obj != nil {
			v.obj.havoc()
		}
	}
}

// run executes instructions until the rank makes an MPI call (returned) or
// finishes (OpFinish).
func (r *ssaRank) run() (Op, error) {
	limit := r.opts.MaxSteps
	if limit == 0 {
		limit = 2e9
	}
	for len(r.stack) > 0 {
		f := r.top()
		if f.pc >= len(f.block.Instrs) {
			return Op{}, r.errorf(f.fn.Pos(), "internal error: fell off block %d", f.block.Index)
		}
		in := f.block.Instrs[f.pc]
		f.pc++
		r.steps++
		if r.steps > limit {
			return Op{}, r.errorf(in.Pos(), "gave up after %d instructions (an endless loop on known values?); raise the limit if the program really runs this long", limit)
		}
		op, yield, err := r.step(f, in)
		if err != nil {
			return Op{}, err
		}
		if yield {
			return op, nil
		}
	}
	return Op{Kind: OpFinish}, nil
}

// step executes one instruction.
func (r *ssaRank) step(f *frame, in ssa.Instruction) (Op, bool, error) {
	switch in := in.(type) {
	case *ssa.DebugRef, *ssa.Phi:
		// Phis were evaluated on block entry.
	case *ssa.Jump:
		return Op{}, false, r.enter(f, f.block, f.block.Succs[0])
	case *ssa.If:
		c := r.get(f, in.Cond)
		next := f.block.Succs[1]
		if c.k == vBool {
			if c.i != 0 {
				next = f.block.Succs[0]
			}
		} else {
			taken, err := r.profiledBranch(f.block, in)
			if err != nil {
				return Op{}, false, err
			}
			if taken {
				next = f.block.Succs[0]
			}
		}
		return Op{}, false, r.enter(f, f.block, next)
	case *ssa.Return:
		return r.ret(f, in)
	case *ssa.Panic:
		return Op{}, false, r.errorf(in.Pos(), "program panics: %v", r.get(f, in.X))
	case *ssa.Alloc:
		elem := in.Type().(*types.Pointer).Elem()
		r.set(f, in, value{k: vPtr, obj: newObject(zeroValue(elem), nil)})
	case *ssa.Store:
		r.store(r.get(f, in.Addr), copyValue(r.get(f, in.Val)))
	case *ssa.UnOp:
		x := r.get(f, in.X)
		if in.Op == token.MUL {
			r.set(f, in, copyValue(r.load(x, in.Type())))
		} else if in.Op == token.ARROW {
			return Op{}, false, r.errorf(in.Pos(), "unsupported construct: channel receive (channels inside an SPMD program are not modelled)")
		} else {
			r.set(f, in, unop(in.Op, x, in.X.Type()))
		}
	case *ssa.BinOp:
		v, err := binop(in.Op, r.get(f, in.X), r.get(f, in.Y), in.X.Type())
		if err != nil {
			return Op{}, false, r.errorf(in.Pos(), "%v", err)
		}
		r.set(f, in, v)
	case *ssa.Convert:
		r.set(f, in, convert(r.get(f, in.X), in.X.Type(), in.Type()))
	case *ssa.ChangeType:
		r.set(f, in, r.get(f, in.X))
	case *ssa.MultiConvert:
		r.set(f, in, unknown)
	case *ssa.ChangeInterface:
		r.set(f, in, r.get(f, in.X))
	case *ssa.SliceToArrayPointer:
		x := r.get(f, in.X)
		if x.k == vSlice {
			r.set(f, in, value{k: vPtr, obj: x.obj, i: x.i, c: -2}) // pointer to the array at offset
		} else {
			r.set(f, in, unknown)
		}
	case *ssa.MakeInterface:
		x := r.get(f, in.X)
		o := newObject(unknown, nil)
		o.set(0, copyValue(x))
		r.set(f, in, value{k: vIface, obj: o, t: in.X.Type()})
	case *ssa.TypeAssert:
		r.set(f, in, r.typeAssert(r.get(f, in.X), in))
	case *ssa.MakeClosure:
		o := newObject(unknown, nil)
		for i, b := range in.Bindings {
			o.set(int64(i), r.get(f, b))
		}
		r.set(f, in, value{k: vFunc, fn: in.Fn.(*ssa.Function), obj: o})
	case *ssa.MakeSlice:
		r.set(f, in, r.makeSlice(r.get(f, in.Len), r.get(f, in.Cap), in.Type()))
	case *ssa.MakeMap:
		r.set(f, in, value{k: vMap, obj: &object{def: unknown, m: map[mapKey]value{}}})
	case *ssa.MakeChan:
		return Op{}, false, r.errorf(in.Pos(), "unsupported construct: channels inside an SPMD program are not modelled")
	case *ssa.Slice:
		r.set(f, in, r.slice(f, in))
	case *ssa.FieldAddr:
		x := r.get(f, in.X)
		if x.k == vPtr && x.c == 0 {
			s := r.load(x, in.X.Type().Underlying().(*types.Pointer).Elem())
			if s.k == vStruct {
				r.set(f, in, value{k: vPtr, obj: s.obj, i: int64(in.Field)})
				break
			}
		}
		r.set(f, in, unknown)
	case *ssa.Field:
		x := r.get(f, in.X)
		if x.k == vStruct {
			r.set(f, in, x.obj.get(int64(in.Field)))
		} else {
			r.set(f, in, unknownOf(in.Type()))
		}
	case *ssa.IndexAddr:
		r.set(f, in, r.indexAddr(r.get(f, in.X), r.get(f, in.Index), in.X.Type()))
	case *ssa.Index:
		x, i := r.get(f, in.X), r.get(f, in.Index)
		switch {
		case x.k == vArray && i.k == vInt:
			r.set(f, in, x.obj.get(i.i))
		case x.k == vString && i.k == vInt && i.i >= 0 && i.i < int64(len(x.s)):
			r.set(f, in, intv(int64(x.s[i.i])))
		default:
			r.set(f, in, unknownOf(in.Type()))
		}
	case *ssa.Lookup:
		r.set(f, in, r.lookup(r.get(f, in.X), r.get(f, in.Index), in))
	case *ssa.MapUpdate:
		m, k := r.get(f, in.Map), r.get(f, in.Key)
		if m.k == vMap && m.obj.m != nil {
			if key, ok := keyOf(k); ok {
				m.obj.m[key] = copyValue(r.get(f, in.Value))
			} else {
				m.obj.havoc()
			}
		}
	case *ssa.Extract:
		t := r.get(f, in.Tuple)
		if t.k == vTuple {
			r.set(f, in, t.obj.get(int64(in.Index)))
		} else {
			r.set(f, in, unknownOf(in.Type()))
		}
	case *ssa.Range:
		r.set(f, in, r.rangeIter(r.get(f, in.X)))
	case *ssa.Next:
		r.set(f, in, r.next(r.get(f, in.Iter), in))
	case *ssa.Call:
		return r.call(f, in)
	case *ssa.Defer:
		fn, args := r.callee(f, in.Common())
		f.defers = append(f.defers, deferred{fn: fn, args: args, site: in})
	case *ssa.RunDefers:
		return r.runDefers(f)
	case *ssa.Go:
		return Op{}, false, r.errorf(in.Pos(), "unsupported construct: go statement (goroutines inside an SPMD program are not modelled; use mpi ranks)")
	case *ssa.Send, *ssa.Select:
		return Op{}, false, r.errorf(in.Pos(), "unsupported construct: channel operations inside an SPMD program are not modelled")
	default:
		return Op{}, false, r.errorf(in.Pos(), "unsupported instruction %T", in)
	}
	return Op{}, false, nil
}

// profiledBranch decides a branch on an unknown condition from the
// profiled frequency p by error diffusion: over n visits the first arm is
// taken floor(n p) or ceil(n p) times, deterministically. The likelier arm
// comes first, so a loop test that continues with p = 49/50 runs 49
// iterations and then exits, as the profiled loop did.
func (r *ssaRank) profiledBranch(b *ssa.BasicBlock, in *ssa.If) (bool, error) {
	p, ok := r.shared.oracle.BranchTaken(b)
	if !ok {
		return false, r.errorf(in.Pos(), "branch on a value the interpreter cannot know (computed by skipped work or a library), and the profile has no frequency for it; profile the program again")
	}
	r.assume(r.nearestPos(r.top()), "branch on an unknown value follows the profiled frequency %.3g", p)
	acc, seen := r.branch[b]
	if !seen && p >= 0.5 {
		acc = 1 - 1e-9
	}
	acc += p
	taken := acc >= 1
	if taken {
		acc--
	}
	r.branch[b] = acc
	return taken, nil
}

func (r *ssaRank) ret(f *frame, in *ssa.Return) (Op, bool, error) {
	var result value
	switch len(in.Results) {
	case 0:
	case 1:
		result = r.get(f, in.Results[0])
	default:
		o := newObject(unknown, nil)
		for i, v := range in.Results {
			o.set(int64(i), r.get(f, v))
		}
		result = value{k: vTuple, obj: o}
	}
	r.stack = r.stack[:len(r.stack)-1]
	if f.onExit != nil {
		f.onExit()
	}
	if f.call != nil && len(r.stack) > 0 {
		r.set(r.top(), f.call, result)
	}
	return Op{}, false, nil
}

func (r *ssaRank) runDefers(f *frame) (Op, bool, error) {
	for len(f.defers) > 0 {
		d := f.defers[len(f.defers)-1]
		f.defers = f.defers[:len(f.defers)-1]
		if d.fn.k == vFunc && d.fn.fn != nil && r.shared.oracle.IsUser(d.fn.fn) {
			// Run the deferred user call to completion before going on.
			depth := len(r.stack)
			if err := r.pushCall(d.fn.fn, d.args, d.fn.obj, nil); err != nil {
				return Op{}, false, err
			}
			for len(r.stack) > depth {
				in := r.top().block.Instrs[r.top().pc]
				r.top().pc++
				op, yield, err := r.step(r.top(), in)
				if err != nil {
					return Op{}, false, err
				}
				if yield {
					return op, false, r.errorf(in.Pos(), "unsupported construct: MPI call inside a deferred function")
				}
			}
			continue
		}
		r.compute += r.shared.oracle.CallCost(d.site)
	}
	return Op{}, false, nil
}

func (r *ssaRank) load(p value, t types.Type) value {
	if p.k != vPtr || p.obj == nil || p.c == -1 {
		return unknownOf(t)
	}
	if p.c == -2 { // pointer to an array inside a slice's backing store
		u, ok := t.Underlying().(*types.Array)
		if !ok {
			return unknownOf(t)
		}
		o := newObject(unknown, u.Elem())
		for j := range u.Len() {
			o.set(j, p.obj.get(p.i+j))
		}
		return value{k: vArray, n: u.Len(), obj: o}
	}
	return p.obj.get(p.i)
}

func (r *ssaRank) store(p, v value) {
	switch {
	case p.k != vPtr || p.obj == nil:
		// A store through an unknown pointer: we cannot tell what it hits.
		// The memory it may reach was already made unknown when the
		// pointer became unknown, so nothing known is invalidated here.
	case p.c == -1 || p.c == -2:
		p.obj.havoc()
	default:
		p.obj.set(p.i, v)
	}
}

func (r *ssaRank) makeSlice(n, c value, t types.Type) value {
	elem := t.Underlying().(*types.Slice).Elem()
	if n.k != vInt {
		return value{k: vUnknown}
	}
	if c.k != vInt {
		c = n
	}
	return value{k: vSlice, obj: newObject(zeroValue(elem), elem), n: n.i, c: c.i}
}

func (r *ssaRank) slice(f *frame, in *ssa.Slice) value {
	x := r.get(f, in.X)
	var lo, hi, max value = intv(0), unknown, unknown
	if in.Low != nil {
		lo = r.get(f, in.Low)
	}
	if in.High != nil {
		hi = r.get(f, in.High)
	}
	if in.Max != nil {
		max = r.get(f, in.Max)
	}
	switch x.k {
	case vString:
		l, h := lo.i, int64(len(x.s))
		if in.High != nil {
			h = hi.i
		}
		if lo.k != vInt || (in.High != nil && hi.k != vInt) || l < 0 || h > int64(len(x.s)) || l > h {
			return unknown
		}
		return value{k: vString, s: x.s[l:h]}
	case vSlice:
		if in.High == nil {
			hi = intv(x.n)
		}
		if in.Max == nil {
			max = intv(x.c)
		}
		if lo.k != vInt || hi.k != vInt || max.k != vInt {
			return unknown
		}
		return value{k: vSlice, obj: x.obj, i: x.i + lo.i, n: hi.i - lo.i, c: max.i - lo.i}
	case vPtr: // slicing a pointer to an array
		at, ok := in.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
		if !ok {
			return unknown
		}
		arr := r.load(x, at)
		if arr.k != vArray {
			return unknown
		}
		if in.High == nil {
			hi = intv(at.Len())
		}
		if in.Max == nil {
			max = intv(at.Len())
		}
		if lo.k != vInt || hi.k != vInt || max.k != vInt {
			return unknown
		}
		return value{k: vSlice, obj: arr.obj, i: lo.i, n: hi.i - lo.i, c: max.i - lo.i}
	}
	return unknown
}

func (r *ssaRank) indexAddr(x, i value, t types.Type) value {
	switch x.k {
	case vSlice:
		if i.k != vInt {
			return value{k: vPtr, obj: x.obj, c: -1}
		}
		return value{k: vPtr, obj: x.obj, i: x.i + i.i}
	case vPtr: // pointer to array
		arr := r.load(x, t.Underlying().(*types.Pointer).Elem())
		if arr.k != vArray {
			return unknown
		}
		if i.k != vInt {
			return value{k: vPtr, obj: arr.obj, c: -1}
		}
		return value{k: vPtr, obj: arr.obj, i: i.i}
	}
	return unknown
}

func keyOf(v value) (mapKey, bool) {
	switch v.k {
	case vInt, vBool, vFloat, vString:
		return mapKey{k: v.k, i: v.i, f: v.f, s: v.s}, true
	}
	return mapKey{}, false
}

func (r *ssaRank) lookup(m, k value, in *ssa.Lookup) value {
	if m.k == vString {
		if k.k == vInt && k.i >= 0 && k.i < int64(len(m.s)) {
			return intv(int64(m.s[k.i]))
		}
		return unknown
	}
	elemT := in.X.Type().Underlying().(*types.Map).Elem()
	var v value
	found := false
	if m.k == vMap && m.obj.m != nil {
		if key, ok := keyOf(k); ok {
			v, found = m.obj.m[key]
			if !found {
				v = zeroValue(elemT)
			}
		} else {
			v = unknownOf(elemT)
		}
	} else if m.k == vNil {
		v = zeroValue(elemT)
	} else {
		v = unknownOf(elemT)
	}
	if !in.CommaOk {
		return v
	}
	o := newObject(unknown, nil)
	o.set(0, v)
	if m.k == vMap && m.obj.m != nil || m.k == vNil {
		o.set(1, boolv(found))
	}
	return value{k: vTuple, obj: o}
}

// iterator state for Range/Next over strings and maps.
type iter struct {
	s    string
	keys []mapKey
	m    map[mapKey]value
	pos  int
}

func (r *ssaRank) rangeIter(x value) value {
	o := newObject(unknown, nil)
	it := &iter{}
	switch x.k {
	case vString:
		it.s = x.s
	case vMap:
		if x.obj.m == nil {
			return unknown
		}
		it.m = x.obj.m
		for k := range x.obj.m {
			it.keys = append(it.keys, k)
		}
		// Go randomises map order; a prediction must not, so keys go in order.
		sort.Slice(it.keys, func(a, b int) bool {
			ka, kb := it.keys[a], it.keys[b]
			if ka.k != kb.k {
				return ka.k < kb.k
			}
			if ka.i != kb.i {
				return ka.i < kb.i
			}
			if ka.f != kb.f {
				return ka.f < kb.f
			}
			return ka.s < kb.s
		})
	case vNil:
	default:
		return unknown
	}
	o.it = it
	return value{k: vOpaque, s: "iter", obj: o}
}

func (r *ssaRank) next(x value, in *ssa.Next) value {
	t := in.Type().(*types.Tuple)
	o := newObject(unknown, nil)
	if x.k != vOpaque || x.obj == nil || x.obj.it == nil {
		return unknownOf(t)
	}
	it := x.obj.it
	if in.IsString {
		if it.pos >= len(it.s) {
			o.set(0, boolv(false))
			o.set(1, intv(0))
			o.set(2, intv(0))
		} else {
			c, w := utf8.DecodeRuneInString(it.s[it.pos:])
			o.set(0, boolv(true))
			o.set(1, intv(int64(it.pos)))
			o.set(2, intv(int64(c)))
			it.pos += w
		}
		return value{k: vTuple, obj: o}
	}
	if it.pos >= len(it.keys) {
		o.set(0, boolv(false))
		o.set(1, zeroValue(t.At(1).Type()))
		o.set(2, zeroValue(t.At(2).Type()))
	} else {
		k := it.keys[it.pos]
		o.set(0, boolv(true))
		o.set(1, value{k: k.k, i: k.i, f: k.f, s: k.s})
		o.set(2, it.m[k])
		it.pos++
	}
	return value{k: vTuple, obj: o}
}

func (r *ssaRank) typeAssert(x value, in *ssa.TypeAssert) value {
	var v value
	ok := false
	if x.k == vIface && x.t != nil {
		if types.Identical(x.t, in.AssertedType) {
			v, ok = x.obj.get(0), true
		} else if iface, isIface := in.AssertedType.Underlying().(*types.Interface); isIface && types.Implements(x.t, iface) {
			v, ok = x, true
		}
	}
	known := x.k == vIface || x.k == vNil
	if !ok {
		v = zeroValue(in.AssertedType)
		if !known {
			v = unknownOf(in.AssertedType)
		}
	}
	if !in.CommaOk {
		return v
	}
	o := newObject(unknown, nil)
	o.set(0, v)
	if known {
		o.set(1, boolv(ok))
	}
	return value{k: vTuple, obj: o}
}
