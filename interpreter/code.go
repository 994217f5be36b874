package interpreter

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// fnCode is a function prepared once per simulation for execution: every
// operand is resolved to a frame slot, a pre-evaluated constant or a
// global, so that executing an instruction needs no map lookup, and every
// block carries what entering it needs (its cost, its phis' operands per
// incoming edge, the reduced nest each edge enters). The oracle does not
// change during a simulation, so its answers can be kept here.
type fnCode struct {
	fn     *ssa.Function
	index  map[ssa.Value]int32 // slots by value, for lookups by ssa.Value (reduced nests)
	nslots int
	blocks []*blockCode // by ssa.BasicBlock.Index
	frames []*frame     // frames of fn returned from, for reuse by any rank
	// samples counts the ranks' instructions in fn, about one per
	// hotSample executed (HotSpots).
	samples int64
}

// blockCode is one block of a fnCode.
type blockCode struct {
	b     *ssa.BasicBlock
	id    int // unique within the simulation: indexes per-rank branch state
	code  []instrCode
	cost  float64
	label string       // the region the cost belongs to (RegionNamer)
	solo  float64      // the cost's SoloFactor (SoloCoster; else 1)
	phis  []int32      // slots of the leading phis
	edges [][]operand  // per predecessor index: the phis' operands on that edge
	swap  []bool       // per predecessor index: an operand on that edge is one of the phis
	reds  []*reduction // per predecessor index: the reduced nest the edge enters
	succ  []int        // per successor: this block's index in its Preds
	// The profiled frequency of the If ending the block, once asked.
	branchAsked, branchOK bool
	branchP               float64
	branchNoted           bool // the assumption is recorded
	// exitGroup indexes the per-rank exit accumulator of the loop whose
	// exit test ends the block (LoopExiter), -1 if none; stay0 says
	// whether Succs[0] stays in that loop.
	exitGroup int
	stay0     bool
}

// instrCode is one instruction's operands. Which of a..d and args an
// instruction uses is listed in compileInstr.
type instrCode struct {
	dst        int32 // slot of the value the instruction defines; -1 if none
	a, b, c, d operand
	args       []operand
	num        numType     // BinOp: the operands' type
	callee     *calleeInfo // the callee of a call or defer of a named function (no free variables)
	callCost   float64     // oracle.CallCost of a call or defer
	callLabel  string      // the region callCost belongs to (RegionNamer)
	callSolo   float64     // callCost's SoloFactor (SoloCoster; else 1)
	sized      *sizedCost  // a copy or library call costed by the lengths it is given (CopyCoster, LibraryCoster)
	site       string      // "file.go:line" of an MPI call, once needed
	// sameData sizes an MPI call's buffers of unknown length from other
	// calls of the same data (sameDataBytes), by argument, once needed.
	sameData map[int]sameDataSize
	unused   bool // a call whose result no instruction reads
}

// reduction is a reduced nest entered by an edge, with the slots of the
// values it defines and the operands of the memory it writes.
type reduction struct {
	red      *Reduction
	writes   []operand
	through  []pathCode
	grows    []growCode
	phiGrows []phiGrowCode
	blocks   map[*ssa.BasicBlock]bool // red.Blocks
	needs    map[ssa.Value]bool       // what Time may ask for; nil: anything
	defs     []int32
	defTypes []types.Type // per def: its type if unknownOf must build an aggregate, else nil
	exit     *blockCode
	exitEdge int
	memoRing // the latest distinct answers of red.Time, for every rank
	giveUp   *giveUpCode
	rot      *rotationCode
}

// giveUpCode is a GiveUp on one back edge: the values the loop's
// results and counter take by that edge, and the counter's start.
type giveUpCode struct {
	results        []operand
	joined         []bool
	loose          []bool
	counter, start operand
}

// sizedCost is a call costed per unit of the lengths it is given: a copy
// per element copied (CopyCoster's answer), a library call per element
// of its arguments args, or per n log2 n of them for a sort
// (LibraryCoster's).
type sizedCost struct {
	perUnit, meanUnits float64
	label              string
	lib                LibraryCost
}

// growCode is a Growth with its base as an operand.
type growCode struct {
	g    *Growth
	path pathCode
}

// phiGrowCode is a PhiGrowth of a reduced nest: the slot of its phi, its
// operand from outside the nest, and its index in Reduction.PhiGrows
// (and in PhiGrowCounts' answer).
type phiGrowCode struct {
	index int
	slot  int32
	entry operand
	elem  types.Type
}

// pathCode is a MemPath with its base as an operand.
type pathCode struct {
	base  operand
	steps []MemRead
	elems bool
	slot  types.Type
}

type okind uint8

const (
	oNone    okind = iota // absent (a Slice without Low, ...)
	oSlot                 // idx: the frame's env slot
	oConst                // val: an aggregate constant, copied on use
	oValue                // val: any other constant, a function or a builtin
	oGlobal               // idx: the global's index in programShared
	oUnknown              // a value of another function: unknown
)

// operand is a resolved operand of an instruction.
type operand struct {
	kind okind
	idx  int32
	val  *value
}

// calleeInfo is what a call needs to know about a function it calls.
type calleeInfo struct {
	fn       *ssa.Function
	mpi      bool
	user     bool
	mpiName  string   // the mpi function's name (of the generic origin)
	mpiQuery mpiQuery // Rank or Size: answered without an Op
	onComm   bool     // an mpi function or method whose first argument is a *Comm
	elemSize int      // mpi: size of the type argument's values, else 1
	libName  string   // library functions: the name pureLib knows them by, once needed
	// seqCount, for the standard library's iterator constructors, counts
	// the elements of the iterator a call returns (seqCounts).
	seqCount func(args []value) (int64, bool)
	code     *fnCode
}

// code returns fn's compiled form, compiling it on first use.
func (s *programShared) code(fn *ssa.Function) *fnCode {
	if fc, ok := s.codes[fn]; ok {
		return fc
	}
	fc := &fnCode{fn: fn}
	s.codes[fn] = fc
	reds := make([][]*Reduction, len(fn.Blocks))
	for i, b := range fn.Blocks {
		reds[i] = make([]*Reduction, len(b.Preds))
		for e, pred := range b.Preds {
			reds[i][e] = s.oracle.Reduction(pred, b)
		}
	}
	plan := planSlots(fn, reds)
	fc.index, fc.nslots = plan.index, plan.nslots
	fc.blocks = make([]*blockCode, len(fn.Blocks))
	for i, b := range fn.Blocks {
		fc.blocks[i] = &blockCode{b: b, id: s.nblocks, cost: s.oracle.BlockCost(b), exitGroup: -1, solo: 1}
		if n, ok := s.oracle.(RegionNamer); ok && fc.blocks[i].cost > 0 {
			fc.blocks[i].label = n.BlockRegion(b)
		}
		if sc, ok := s.oracle.(SoloCoster); ok && fc.blocks[i].cost > 0 {
			fc.blocks[i].solo = sc.SoloFactor(fc.blocks[i].label)
		}
		if le, ok := s.oracle.(LoopExiter); ok {
			if loop, stay0, ok := le.LoopExit(b); ok {
				g, seen := s.exitGroups[loop]
				if !seen {
					g = len(s.exitGroups)
					s.exitGroups[loop] = g
				}
				fc.blocks[i].exitGroup, fc.blocks[i].stay0 = g, stay0
			}
		}
		s.nblocks++
	}
	for i, bc := range fc.blocks {
		s.compileBlock(fc, bc, reds[i], plan)
	}
	return fc
}

func (s *programShared) compileBlock(fc *fnCode, bc *blockCode, reds []*Reduction, plan *slotPlan) {
	b := bc.b
	bc.code = make([]instrCode, len(b.Instrs))
	for i, in := range b.Instrs {
		s.compileInstr(fc, in, &bc.code[i])
	}
	var phis []*ssa.Phi
	for _, in := range b.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		phis = append(phis, phi)
		bc.phis = append(bc.phis, fc.index[phi])
	}
	bc.edges = make([][]operand, len(b.Preds))
	bc.reds = make([]*reduction, len(b.Preds))
	bc.swap = make([]bool, len(b.Preds))
	isPhi := map[int32]bool{}
	for _, slot := range bc.phis {
		isPhi[slot] = true
	}
	for e := range b.Preds {
		for _, phi := range phis {
			o := s.operand(fc, phi.Edges[e])
			bc.edges[e] = append(bc.edges[e], o)
			bc.swap[e] = bc.swap[e] || o.kind == oSlot && isPhi[o.idx]
		}
		if red := reds[e]; red != nil {
			bc.reds[e] = s.reduction(fc, red, plan)
			if red.Rotation != nil {
				bc.reds[e].rot = s.rotation(fc, red, e, plan)
			}
			if g := red.GiveUp; g != nil {
				gc := &giveUpCode{counter: s.operand(fc, g.Counter.Edges[e]), start: s.operand(fc, g.Init), joined: g.Joined, loose: g.Loose}
				for _, phi := range g.Results {
					gc.results = append(gc.results, s.operand(fc, phi.Edges[e]))
				}
				bc.reds[e].giveUp = gc
			}
		}
	}
	for _, succ := range b.Succs {
		bc.succ = append(bc.succ, predIndex(succ, b))
	}
}

// predIndex is the index of pred in b.Preds (the first, if twice), or -1.
func predIndex(b, pred *ssa.BasicBlock) int {
	for i, p := range b.Preds {
		if p == pred {
			return i
		}
	}
	return -1
}

func (s *programShared) reduction(fc *fnCode, red *Reduction, plan *slotPlan) *reduction {
	rc := &reduction{red: red, exitEdge: -1}
	if red.Needs != nil {
		rc.needs = map[ssa.Value]bool{}
		for _, v := range red.Needs {
			rc.needs[v] = true
		}
	}
	for _, w := range red.Writes {
		rc.writes = append(rc.writes, s.operand(fc, w))
	}
	rc.blocks = map[*ssa.BasicBlock]bool{}
	for _, b := range red.Blocks {
		rc.blocks[b] = true
	}
	for _, p := range red.WritesThrough {
		rc.through = append(rc.through, pathCode{base: s.operand(fc, p.Base), steps: p.Steps, elems: p.Elems, slot: p.Slot})
	}
	for i := range red.Grows {
		g := &red.Grows[i]
		rc.grows = append(rc.grows, growCode{g: g, path: pathCode{base: s.operand(fc, g.Base), steps: g.Steps}})
	}
	for i := range red.PhiGrows {
		g := &red.PhiGrows[i]
		slot, ok := fc.index[g.Phi]
		if !ok || red.ExitFrom == nil || red.ExitFrom.Parent() != fc.fn || !plan.live(red.ExitFrom, g.Phi) {
			continue // dead after the nest: nothing to give it
		}
		rc.phiGrows = append(rc.phiGrows, phiGrowCode{index: i, slot: slot, entry: s.operand(fc, g.Entry), elem: g.Elem})
	}
	for _, nb := range red.Blocks {
		for _, in := range nb.Instrs {
			if v, ok := in.(ssa.Value); ok {
				slot, ok := fc.index[v]
				if !ok {
					continue // not of this function: nothing of the frame to forget
				}
				if red.ExitFrom != nil && red.ExitFrom.Parent() == fc.fn && !plan.live(red.ExitFrom, v) {
					continue // dead after the nest: its slot may be another value's
				}
				rc.defs = append(rc.defs, slot)
				var t types.Type
				switch v.Type().Underlying().(type) {
				case *types.Struct, *types.Tuple:
					t = v.Type()
				}
				rc.defTypes = append(rc.defTypes, t)
			}
		}
	}
	if red.Exit != nil && red.Exit.Parent() == fc.fn {
		rc.exit = fc.blocks[red.Exit.Index]
		rc.exitEdge = predIndex(red.Exit, red.ExitFrom)
	}
	return rc
}

// operand resolves v as an operand of an instruction of fc.
func (s *programShared) operand(fc *fnCode, v ssa.Value) operand {
	switch v := v.(type) {
	case nil:
		return operand{kind: oNone}
	case *ssa.Const:
		c := constValue(v.Value, v.Type())
		if (c.k == vStruct || c.k == vArray) && c.obj != nil {
			return operand{kind: oConst, val: &c}
		}
		return operand{kind: oValue, val: &c}
	case *ssa.Function:
		fv := funcv(v)
		return operand{kind: oValue, val: &fv}
	case *ssa.Builtin:
		name := v.Name()
		return operand{kind: oValue, val: &value{k: vFunc, sp: &name}}
	case *ssa.Global:
		i, ok := s.globalIdx[v]
		if !ok {
			i = int32(len(s.globalList))
			s.globalIdx[v] = i
			s.globalList = append(s.globalList, v)
		}
		return operand{kind: oGlobal, idx: i}
	}
	if i, ok := fc.index[v]; ok {
		return operand{kind: oSlot, idx: i}
	}
	return operand{kind: oUnknown}
}

// compileInstr fills ic with in's operands:
//
//	If: a Cond; Panic: a X; Store: a Addr, b Val
//	UnOp, Convert, ChangeType, ChangeInterface, SliceToArrayPointer,
//	MakeInterface, TypeAssert, FieldAddr, Field, Range: a X
//	Next: a Iter; Extract: a Tuple
//	BinOp: a X, b Y; IndexAddr, Index, Lookup: a X, b Index
//	MakeSlice: a Len, b Cap; Slice: a X, b Low, c High, d Max
//	MapUpdate: a Map, b Key, c Value; MakeClosure: args Bindings
//	Call, Defer: a the function value (receiver when invoking), args Args
//	Return: args Results
func (s *programShared) compileInstr(fc *fnCode, in ssa.Instruction, ic *instrCode) {
	ic.dst = -1
	if v, ok := in.(ssa.Value); ok {
		ic.dst = fc.index[v]
	}
	op := func(v ssa.Value) operand { return s.operand(fc, v) }
	ops := func(vs []ssa.Value) []operand {
		out := make([]operand, len(vs))
		for i, v := range vs {
			out[i] = op(v)
		}
		return out
	}
	switch in := in.(type) {
	case *ssa.If:
		ic.a = op(in.Cond)
	case *ssa.Panic:
		ic.a = op(in.X)
	case *ssa.Store:
		ic.a, ic.b = op(in.Addr), op(in.Val)
	case *ssa.UnOp:
		ic.a = op(in.X)
	case *ssa.Convert:
		ic.a = op(in.X)
	case *ssa.ChangeType:
		ic.a = op(in.X)
	case *ssa.ChangeInterface:
		ic.a = op(in.X)
	case *ssa.SliceToArrayPointer:
		ic.a = op(in.X)
	case *ssa.MakeInterface:
		ic.a = op(in.X)
	case *ssa.TypeAssert:
		ic.a = op(in.X)
	case *ssa.FieldAddr:
		ic.a = op(in.X)
	case *ssa.Field:
		ic.a = op(in.X)
	case *ssa.Range:
		ic.a = op(in.X)
	case *ssa.Next:
		ic.a = op(in.Iter)
	case *ssa.Extract:
		ic.a = op(in.Tuple)
	case *ssa.BinOp:
		ic.a, ic.b = op(in.X), op(in.Y)
		ic.num = numOf(in.X.Type())
	case *ssa.IndexAddr:
		ic.a, ic.b = op(in.X), op(in.Index)
	case *ssa.Index:
		ic.a, ic.b = op(in.X), op(in.Index)
	case *ssa.Lookup:
		ic.a, ic.b = op(in.X), op(in.Index)
	case *ssa.MakeSlice:
		ic.a, ic.b = op(in.Len), op(in.Cap)
	case *ssa.Slice:
		ic.a, ic.b, ic.c, ic.d = op(in.X), op(in.Low), op(in.High), op(in.Max)
	case *ssa.MapUpdate:
		ic.a, ic.b, ic.c = op(in.Map), op(in.Key), op(in.Value)
	case *ssa.MakeClosure:
		ic.args = ops(in.Bindings)
	case *ssa.Return:
		ic.args = ops(in.Results)
	case ssa.CallInstruction:
		c := in.Common()
		ic.a, ic.args = op(c.Value), ops(c.Args)
		if fn, ok := c.Value.(*ssa.Function); ok && !c.IsInvoke() {
			ic.callee = s.callee(fn)
		}
		ic.callCost, ic.callSolo = s.oracle.CallCost(in), 1
		if n, ok := s.oracle.(RegionNamer); ok && ic.callCost > 0 {
			ic.callLabel = n.CallRegion(in)
		}
		if sc, ok := s.oracle.(SoloCoster); ok && ic.callCost > 0 {
			ic.callSolo = sc.SoloFactor(ic.callLabel)
		}
		if v, ok := in.(*ssa.Call); ok && v.Referrers() != nil {
			ic.unused = len(*v.Referrers()) == 0
		}
		if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "copy" {
			if cc, ok := s.oracle.(CopyCoster); ok {
				if per, mean, label, ok := cc.CopyCost(in); ok {
					ic.sized = &sizedCost{perUnit: per, meanUnits: mean, label: label}
				}
			}
		} else if lc, ok := s.oracle.(LibraryCoster); ok && ic.callee != nil && !ic.callee.user && !ic.callee.mpi {
			if c, ok := lc.LibraryCost(in); ok && c.Args != nil {
				ic.sized = &sizedCost{perUnit: c.PerUnit, label: ic.callLabel, lib: c}
			}
		}
	}
}

// mpiQuery marks the mpi functions whose answer the rank knows at once.
type mpiQuery uint8

const (
	queryNone mpiQuery = iota
	queryRank          // Comm.Rank
	querySize          // Comm.Size, NP
)

// isCommPtr reports whether t is *mpi.Comm.
func isCommPtr(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Comm" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == MPIPath
}

// callee returns what calls need to know about fn.
func (s *programShared) callee(fn *ssa.Function) *calleeInfo {
	if ci, ok := s.callees[fn]; ok {
		return ci
	}
	ci := &calleeInfo{fn: fn, mpi: isMPI(fn), elemSize: 1}
	ci.user = !ci.mpi && s.oracle.IsUser(fn)
	if !ci.mpi && !ci.user {
		ci.seqCount = seqCountOf(fn)
	}
	if ci.mpi {
		ci.mpiName = mpiName(fn)
		switch ci.mpiName {
		case "Rank":
			ci.mpiQuery = queryRank
		case "Size", "NP":
			ci.mpiQuery = querySize
		}
		if targs := fn.TypeArgs(); len(targs) > 0 {
			ci.elemSize = int(sizes.Sizeof(targs[0]))
		}
		if ps := fn.Signature.Params(); fn.Signature.Recv() != nil {
			ci.onComm = isCommPtr(fn.Signature.Recv().Type())
		} else if ps.Len() > 0 {
			ci.onComm = isCommPtr(ps.At(0).Type())
		}
	}
	s.callees[fn] = ci
	return ci
}
