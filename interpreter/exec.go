package interpreter

import (
	"cmp"
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
	// FirstTouch, when set, charges receives into fresh memory their
	// page faults.
	FirstTouch FirstTouch
	// Slow, when set, is told once per rank that it has executed
	// SlowAfter instructions (0: SlowSteps), and in which function it is:
	// a prediction that will take long can say why while it runs.
	Slow      func(rank int, steps int64, in *ssa.Function)
	SlowAfter int64
	// Refetch, when set, prices the working set (bytes) a rank brings
	// back into a core's caches when it resumes after an MPI operation
	// on a core that ranks take turns on: charged to the first reduced
	// nest it enters then.
	Refetch func(bytes float64) float64
}

// SlowSteps is the instructions of a rank after which ExecOptions.Slow is
// called: seconds of simulation, loops running step by step.
const SlowSteps = 100_000_000

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
	globals []*object // by global index in programShared, created on first use
	// started is set when main reaches mpi.Main or mpi.Run; mainPos is
	// main's position, where a run that never does is noted.
	started bool
	mainPos token.Pos
	flags   *flagSet
	compute float64
	// phiGrownBuf holds a reduced nest's PhiGrowth values between its
	// entry and its exit (phiGrown), reused from one entry to the next.
	phiGrownBuf []value
	// soloer prices the compute of a rank alone on its node once the
	// simulator says it is (Soloist); soloCompute sums it per Step.
	soloer      SoloCoster
	soloCompute float64
	soloLabel   string // the label of soloFactor, when soloKnown
	soloFactor  float64
	soloKnown   bool
	// resumed says that the rank has made an MPI operation since it last
	// entered a reduced nest (ExecOptions.Refetch).
	resumed bool
	// The region that took most of the compute since the last MPI call:
	// charges with the same label in a row add up (a loop's iterations).
	runLabel, topLabel string
	runSum, topSum     float64
	// distributed sums the modelled time of reduced nests whose iterations
	// are divided among the ranks.
	distributed float64
	steps       int64
	sampled     int64       // steps / hotSample at the last sample (HotSpots)
	limit       int64       // the step limit of the current run
	branch      []branchAcc // error-diffusion state of profiled branches, by block id
	exits       []float64   // the same for the exit tests of a loop together, by exit group
	nextReq     int64
	// testedDone are the requests a Test found finished, with what it
	// returned: a later Wait or Waitall on them is answered at once, as
	// package mpi answers it (the simulator has let them go).
	testedDone map[int]Result
	groups     []*Group     // the communicators Split gave the rank; a comm value's i is 1 + the index
	await      *pendingCall // the MPI call whose completion Step is waiting for
	op         Op           // the operation of the MPI call that yields
	awaitBuf   pendingCall  // backing store of await
	bindFrame  *frame       // the frame entering a reduced nest, for binder
	binder     Binder       // the values of bindFrame, made once per rank
	bindLog    *nestMemo    // records what binder answers, when not nil
	// ownMemos are, per reduced nest, the answers and times this rank
	// last entered it with: a nest whose counts differ from rank to
	// rank (a grid's first row, g.first) has more distinct answers than
	// the nest's shared memos hold, while each rank re-enters it with a
	// few of its own (a red-black sweep's two colours).
	ownMemos  map[*reduction]*memoRing
	bindNeeds map[ssa.Value]bool       // the values binder may answer; nil: any
	bindNest  map[*ssa.BasicBlock]bool // the blocks of the nest being entered
	bindRot   *rotationCode            // its rotating phis, if any
	// guesses counts the branches the profiled frequency decided, the
	// last of them in guessBlock; guessMarks is guesses at each GiveUp
	// loop's previous back edge.
	guesses    int64
	guessBlock *ssa.BasicBlock
	// lastGuess is the last branch the profile's frequency decided, and
	// effects counts the instructions that change state (stores, calls):
	// a known test right after it that leads to a panic, nothing changed
	// since, makes the rank take that branch the other way (retreat).
	lastGuess  guessPoint
	effects    int64
	guessMarks map[*reduction]int64
	madeAt     map[*ssa.MakeSlice]bool // sites that made a fresh allocation (FirstTouch)
	// While deferred calls run for a panic (unwind): its value, which
	// recover returns once, ending the panic.
	panicking bool
	panicVal  value
	printed   []string // the last lines the rank printed, where known (output.go)
}

// rankBinder is the Binder of the frame that enters a reduced nest.
type rankBinder struct{ r *ssaRank }

// Value implements Binder.
func (b rankBinder) Value(v ssa.Value) (int64, bool) {
	r := b.r
	if !r.frameHolds(v) {
		if q := r.orbitQuestion(v); q != nil {
			return r.answer(q)
		}
		// Not a value the rank does not know, one it has not computed
		// or kept (so not recorded as unknown: the nest may be run to
		// get it).
		return 0, false
	}
	q := bindQuestion{o: r.shared.operand(r.bindFrame.code, v)}
	return r.answer(&q)
}

// frameHolds reports whether the frame entering the nest holds v: v is
// kept live for the nest (else its slot may hold another value) and not
// computed by the nest, which has not run.
func (r *ssaRank) frameHolds(v ssa.Value) bool {
	if r.bindNeeds != nil && !r.bindNeeds[v] {
		return false
	}
	in, ok := v.(ssa.Instruction)
	return !ok || !r.bindNest[in.Block()]
}

// Memory implements Binder.
func (b rankBinder) Memory(base ssa.Value, steps []MemRead, length bool) (int64, bool) {
	r := b.r
	if _, global := base.(*ssa.Global); !global && r.bindNeeds != nil && !r.bindNeeds[base] {
		return 0, false
	}
	q := bindQuestion{kind: askMem, o: r.shared.operand(r.bindFrame.code, base), steps: append([]MemRead(nil), steps...), length: length}
	return r.answer(&q)
}

// Rank implements Binder.
func (b rankBinder) Rank(comm ssa.Value) int64 {
	i, _ := b.r.answer(b.commQuestion(askRank, comm))
	return i
}

// Size implements Binder.
func (b rankBinder) Size(comm ssa.Value) int64 {
	i, _ := b.r.answer(b.commQuestion(askSize, comm))
	return i
}

// commQuestion asks for the rank or size on comm, when the frame keeps it
// for the nest; on the world otherwise.
func (b rankBinder) commQuestion(kind askKind, comm ssa.Value) *bindQuestion {
	r := b.r
	q := &bindQuestion{kind: kind}
	if comm != nil && r.frameHolds(comm) {
		q.o, q.comm = r.shared.operand(r.bindFrame.code, comm), true
	}
	return q
}

// answer answers q in the binding frame, recording it when a memo is
// being made.
func (r *ssaRank) answer(q *bindQuestion) (int64, bool) {
	i, ok := r.ask(r.bindFrame, q)
	if m := r.bindLog; m != nil {
		m.asked = append(m.asked, *q)
		m.answers = append(m.answers, bindAnswer{i, ok})
	}
	return i, ok
}

// bindQuestion is a question a reduced nest asked: an operand's value,
// what the path from it reaches, or the rank's number or the number of
// ranks (recorded too: a memo made on one rank must not answer another).
type bindQuestion struct {
	kind   askKind
	o      operand
	steps  []MemRead
	length bool
	comm   bool      // askRank, askSize: on the communicator o holds
	orbit  []operand // askOrbit: the entry values a rotating phi takes
}

type askKind uint8

const (
	askValue askKind = iota
	askMem
	askRank
	askSize
	askOrbit
)

// ask answers q in frame f.
func (r *ssaRank) ask(f *frame, q *bindQuestion) (int64, bool) {
	switch q.kind {
	case askRank, askSize:
		var g *Group
		if q.comm {
			g, _ = r.groupOf(*r.ref(f, &q.o))
		}
		rank, size := r.rankSize(g)
		if q.kind == askRank {
			return int64(rank), true
		}
		return int64(size), true
	case askOrbit:
		return r.askOrbitIn(f, q)
	}
	x := *r.ref(f, &q.o)
	if q.kind == askValue {
		return bindValue(x)
	}
	x, ok := followPath(x, q.steps)
	if !ok {
		return 0, false
	}
	if q.length {
		if x.k == vInt {
			return 0, false
		}
		return bindValue(x)
	}
	if x.k != vInt {
		return 0, false
	}
	return x.i, true
}

// bindValue is what the binder answers for x: an integer's value, or the
// length of a slice, array or string (a callee's loop inside a reduced
// nest counts over the length of a slice its caller passes).
func bindValue(x value) (int64, bool) {
	switch x.k {
	case vInt:
		return x.i, true
	case vSlice, vArray:
		return x.n, true
	case vString:
		return int64(len(x.str())), true
	}
	return 0, false
}

// nestMemo is one answer of a reduced nest's Time: the values it asked
// the binder for, in order, what the binder answered, and the time. Time
// is a function of those answers alone, so a frame that gives the same
// answers to the same questions gets the same time without asking the
// oracle (which builds the nest's iteration counts anew each time).
type nestMemo struct {
	asked   []bindQuestion
	answers []bindAnswer
	t       float64
}

type bindAnswer struct {
	i  int64
	ok bool
}

// nestMemos bounds the memos kept per reduced nest: ranks enter a nest
// with a few distinct sets of trip counts (block sizes differ by one).
const nestMemos = 4

// nestTime is the modelled time of reduced nest rc entered from frame f.
// When Time fails, unknownAsked says whether the binder had answered
// "unknown" to one of its questions.
func (r *ssaRank) nestTime(rc *reduction, f *frame) (t float64, unknownAsked bool, err error) {
	for i := range rc.memos {
		if m := &rc.memos[i]; r.sameAnswers(f, m) {
			return m.t, false, nil
		}
	}
	// Looked up only when the shared memos miss: most nests have few
	// distinct answers over all ranks.
	own := r.ownMemos[rc]
	if own == nil {
		if r.ownMemos == nil {
			r.ownMemos = map[*reduction]*memoRing{}
		}
		own = &memoRing{}
		r.ownMemos[rc] = own
	}
	for i := range own.memos {
		if m := &own.memos[i]; r.sameAnswers(f, m) {
			return m.t, false, nil
		}
	}
	m := &nestMemo{}
	r.bindTo(f, rc)
	r.bindLog = m
	t, err = rc.red.Time(r.binder)
	r.unbind()
	if err != nil {
		for _, a := range m.answers {
			unknownAsked = unknownAsked || !a.ok
		}
		return t, unknownAsked, err
	}
	m.t = t
	rc.memoRing.add(m)
	own.add(m)
	return t, false, nil
}

// memoRing keeps the latest nestMemos distinct answers of a nest's Time.
type memoRing struct {
	memos []nestMemo
	next  int // the memo to replace next
}

func (g *memoRing) add(m *nestMemo) {
	if len(g.memos) < nestMemos {
		g.memos = append(g.memos, *m)
		return
	}
	g.memos[g.next] = *m
	g.next = (g.next + 1) % nestMemos
}

// bindTo has the binder answer for frame f entering reduced nest rc,
// until unbind.
func (r *ssaRank) bindTo(f *frame, rc *reduction) {
	r.bindFrame, r.bindNeeds, r.bindNest, r.bindRot = f, rc.needs, rc.blocks, rc.rot
}

// unbind ends what bindTo began.
func (r *ssaRank) unbind() { r.bindLog, r.bindNeeds, r.bindNest, r.bindRot = nil, nil, nil, nil }

// smallNest reports whether reduced nest rc, entered from frame f, is
// one to run rather than skip (Reduction.Small).
func (r *ssaRank) smallNest(rc *reduction, f *frame) bool {
	r.bindTo(f, rc)
	defer r.unbind()
	return rc.red.Small(r.binder)
}

// skipTime is the time charged for skipping reduced nest rc, entered
// from frame f into block bc; skip is false when the nest runs instead.
func (r *ssaRank) skipTime(rc *reduction, f *frame, bc *blockCode) (t float64, skip bool) {
	if rc.giveUp != nil {
		return r.timeLeft(rc, f, bc)
	}
	red := rc.red
	if red.Small != nil && r.smallNest(rc, f) {
		return 0, false // what it writes stays known
	}
	t, unknownAsked, err := r.nestTime(rc, f)
	if err == nil {
		return t, true
	}
	pos := bc.b.Instrs[0].Pos()
	if !unknownAsked || red.MeanTime <= 0 {
		// The nest's time needs values it computes itself: run it,
		// unless it is large and those are the counts of inner loops,
		// which the profile has per entry (Reduction.Infer).
		if !unknownAsked {
			if ti, what, ok := r.inferNest(rc, f); ok {
				r.assume(pos, "reduced nest %s: %s", red.ID, what)
				return ti, true
			}
		}
		r.assume(pos, "reduced nest %s executed instead: %v", red.ID, err)
		return 0, false
	}
	// A count needs a value the rank does not know (data that skipped
	// work or a library made unknown): running the nest would guess
	// every branch in it, at the cost of running it.
	if ti, what, ok := r.inferNest(rc, f); ok {
		r.assume(pos, "reduced nest %s: %s", red.ID, what)
		return ti, true
	}
	r.assume(pos, "reduced nest %s costed at its profiled time per entry: %v", red.ID, err)
	return red.MeanTime, true
}

// guessedIn reports whether, since the previous back edge of GiveUp loop
// rc, a branch was decided by its profiled frequency, the last such one
// in the loop's blocks: the loop's results that depend on which arm ran
// are then guesses.
func (r *ssaRank) guessedIn(rc *reduction) bool {
	if r.guessMarks == nil {
		r.guessMarks = map[*reduction]int64{}
	}
	mark := r.guessMarks[rc] // 0 before the first back edge
	r.guessMarks[rc] = r.guesses
	return mark != r.guesses && rc.blocks[r.guessBlock]
}

// timeLeft is, at a back edge of a step-by-step loop (Reduction.GiveUp)
// from frame f into its header bc, the time of the iterations left when
// every result the loop computes is unknown by that edge; ok is false
// when one is known, or the iterations done or left cannot be had: the
// loop then goes on step by step.
func (r *ssaRank) timeLeft(rc *reduction, f *frame, bc *blockCode) (t float64, ok bool) {
	g := rc.giveUp
	next, start := r.get(f, &g.counter), r.get(f, &g.start)
	step := rc.red.GiveUp.Step
	if next.k != vInt || start.k != vInt || step == 0 {
		return 0, false
	}
	done := (next.i - start.i) / step
	guessed := r.guessedIn(rc)
	for i := range g.results {
		if !r.get(f, &g.results[i]).known() {
			continue
		}
		guess := guessed && i < len(g.joined) && g.joined[i]
		if guess && i < len(g.loose) && g.loose[i] {
			guess = done >= LooseAfter
		}
		if !guess {
			return 0, false
		}
	}
	r.bindTo(f, rc)
	trips, err := rc.red.GiveUp.Trips(r.binder)
	r.unbind()
	if err != nil || done <= 0 || done >= trips {
		return 0, false
	}
	how := "costed"
	left := float64(trips-done) / float64(trips)
	if g := rc.red.GiveUp; g.Left != nil {
		if s, ok := g.Left(done, trips); ok {
			left, how = s, "costed by the profile's time of each iteration"
		}
	}
	whole, _, err := r.nestTime(rc, f)
	switch {
	case err == nil:
		t = whole * left
	case rc.red.IterTime > 0:
		// An inner loop counts over what the body computes: the
		// profiled time per iteration instead.
		t, how = rc.red.IterTime*float64(trips)*left, "costed at the profiled time per iteration"
	default:
		return 0, false
	}
	r.assume(bc.b.Instrs[0].Pos(), "loop %s runs step by step for what it computes, which became unknown (data the simulation does not have): its remaining iterations are %s, not run", rc.red.ID, how)
	return t, true
}

// inferNest is the time of reduced nest rc entered from frame f with the
// value its count lacks inferred from the profile (Reduction.Infer).
func (r *ssaRank) inferNest(rc *reduction, f *frame) (float64, string, bool) {
	if rc.red.Infer == nil {
		return 0, "", false
	}
	r.bindTo(f, rc)
	defer r.unbind()
	t, what, err := rc.red.Infer(r.binder)
	return t, what, err == nil
}

// sameAnswers reports whether the binder of f answers m's questions as
// recorded.
func (r *ssaRank) sameAnswers(f *frame, m *nestMemo) bool {
	for i := range m.asked {
		n, ok := r.ask(f, &m.asked[i])
		if a := m.answers[i]; n != a.i || ok != a.ok {
			return false
		}
	}
	return true
}

// branchAcc is the error-diffusion state of one profiled branch.
type branchAcc struct {
	acc  float64
	seen bool
}

// programShared is what all ranks of one simulation share.
type programShared struct {
	prog       *ssa.Program
	oracle     Oracle
	codes      map[*ssa.Function]*fnCode
	callees    map[*ssa.Function]*calleeInfo
	globalIdx  map[*ssa.Global]int32
	globalList []*ssa.Global
	nblocks    int // blocks compiled so far: the next block id
	// exitGroups numbers the loops whose exit tests share an accumulator
	// (LoopExiter), by the oracle's names for them.
	exitGroups map[string]int
	// Scratch buffers of all ranks: ranks run one at a time, and a buffer
	// one rank just used is still in the cache for the next.
	argBuf []value // a call's arguments, until the callee has them
	phiBuf []value // phi values on block entry
	assume map[Assumption]bool
	// rangeSums caches what each range-over-func body does (rangeBody).
	rangeSums map[*ssa.Function]*rangeSummary
}

func newProgramShared(prog *ssa.Program, oracle Oracle) *programShared {
	return &programShared{prog: prog, oracle: oracle, codes: map[*ssa.Function]*fnCode{},
		callees: map[*ssa.Function]*calleeInfo{}, globalIdx: map[*ssa.Global]int32{},
		assume: map[Assumption]bool{}, exitGroups: map[string]int{}}
}

type frame struct {
	fn      *ssa.Function
	code    *fnCode
	env     []value
	block   *ssa.BasicBlock
	bc      *blockCode
	pc      int
	defers  []deferred
	retSlot int32  // the caller's slot receiving this frame's result; -1: none
	onExit  func() // runs when the frame returns (mpi.Main's body: finish the rank)
	// guessed: the frame followed a branch on an unknown value by the
	// profile's frequency, was called from a frame that had, or called
	// one that had: its known values may be ones the real run never
	// computes (an index a guessed loop exit left past the end).
	guessed bool
}

type deferred struct {
	fn   value
	args []value
	cost float64 // oracle.CallCost of the defer statement
	in   *ssa.Defer
	ic   *instrCode
}

// assume records an assumption at pos; instructions without a position
// (the call of a range-over-func iterator) borrow the nearest earlier
// one, as errorf does.
func (r *ssaRank) assume(pos token.Pos, format string, args ...any) {
	if !pos.IsValid() && len(r.stack) > 0 {
		pos = r.nearestPos(r.top())
	}
	a := Assumption{Pos: r.shared.prog.Fset.Position(pos).String(), What: fmt.Sprintf(format, args...)}
	r.shared.assume[a] = true
}

// errorf builds an error naming the position and the function being run.
// Instructions without a position (If, Jump) borrow the nearest earlier one
// in their block, else the function's.
func (r *ssaRank) errorf(pos token.Pos, format string, args ...any) error {
	at, fn := r.where(pos)
	return fmt.Errorf("%s: in %s: %s", at, fn, fmt.Sprintf(format, args...))
}

// where is pos as file:line:column, borrowing the nearest earlier
// position in the block when it has none, and the running function.
func (r *ssaRank) where(pos token.Pos) (at, fn string) {
	if !pos.IsValid() && len(r.stack) > 0 {
		pos = r.nearestPos(r.top())
	}
	fn = "?"
	if len(r.stack) > 0 {
		fn = r.top().fn.String()
	}
	return r.shared.prog.Fset.Position(pos).String(), fn
}

func (r *ssaRank) nearestPos(f *frame) token.Pos {
	if f.block == nil {
		return f.fn.Pos()
	}
	return lastPos(f.block, f.pc)
}

// lastPos is the position of the last of b's first n instructions that
// has one (an If's is its condition's), else the function's.
func lastPos(b *ssa.BasicBlock, n int) token.Pos {
	for i := min(n, len(b.Instrs)) - 1; i >= 0; i-- {
		in := b.Instrs[i]
		if in.Pos().IsValid() {
			return in.Pos()
		}
		if v, ok := in.(*ssa.If); ok && v.Cond.Pos().IsValid() {
			return v.Cond.Pos()
		}
	}
	return b.Parent().Pos()
}

func (r *ssaRank) top() *frame { return r.stack[len(r.stack)-1] }

// get evaluates an operand in frame f.
func (r *ssaRank) get(f *frame, o *operand) value {
	if o.kind == oSlot {
		return f.env[o.idx]
	}
	return r.getOther(o)
}

// ref is get for operands that are only read: it does not copy slots and
// constants.
func (r *ssaRank) ref(f *frame, o *operand) *value {
	switch o.kind {
	case oSlot:
		return &f.env[o.idx]
	case oConst, oValue:
		return o.val
	}
	v := r.getOther(o)
	return &v
}

func (r *ssaRank) getOther(o *operand) value {
	switch o.kind {
	case oValue:
		return *o.val
	case oConst:
		// Aggregate constants (zero structs and arrays) are fresh values
		// each time, as if built anew.
		return copyValue(*o.val)
	case oGlobal:
		return value{k: vPtr, obj: r.global(o.idx)}
	}
	return unknown
}

// set stores the result of f's current instruction.
func (r *ssaRank) set(f *frame, x value) { f.env[f.bc.code[f.pc-1].dst] = x }

func (r *ssaRank) global(idx int32) *object {
	if int(idx) < len(r.globals) && r.globals[idx] != nil {
		return r.globals[idx]
	}
	g := r.shared.globalList[idx]
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
	for int(idx) >= len(r.globals) {
		r.globals = append(r.globals, nil)
	}
	r.globals[idx] = o
	return o
}

func (r *ssaRank) osArgs() value {
	o := newObject(value{k: vString}, nil)
	o.set(0, strv("program"))
	for i, a := range r.opts.Args {
		o.set(int64(i+1), strv(a))
	}
	n := int64(len(r.opts.Args) + 1)
	return value{k: vSlice, obj: o, n: n, c: n}
}

// pushCall starts a call of a user function. retSlot is the caller's slot
// that receives the result, or -1.
func (r *ssaRank) pushCall(fn *ssa.Function, args []value, free *object, retSlot int32) error {
	if len(fn.Blocks) == 0 {
		return r.errorf(fn.Pos(), "function %s has no body (assembly or external)", fn)
	}
	return r.pushCode(r.shared.code(fn), args, free, retSlot)
}

func (r *ssaRank) pushCode(fc *fnCode, args []value, free *object, retSlot int32) error {
	// Frames come from the function's pool, which all ranks share: the
	// one a rank just returned from is still in the cache when the next
	// rank calls, and its env has the right size.
	var f *frame
	var env []value
	if n := len(fc.frames); n > 0 {
		f = fc.frames[n-1]
		fc.frames = fc.frames[:n-1]
		env = f.env
		clear(env)
	} else {
		f = &frame{}
		env = make([]value, fc.nslots)
	}
	*f = frame{fn: fc.fn, code: fc, env: env, defers: f.defers[:0], retSlot: retSlot,
		guessed: len(r.stack) > 0 && r.top().guessed}
	// Params take the first slots, free variables the next ones.
	n := min(len(args), len(fc.fn.Params))
	copy(env[:n], args[:n])
	if free != nil {
		for i := range fc.fn.FreeVars {
			env[len(fc.fn.Params)+i] = free.get(int64(i))
		}
	}
	r.stack = append(r.stack, f)
	return r.enter(f, -1, fc.blocks[0])
}

// enter moves f to block bc by its incoming edge (the index in the block's
// Preds; -1 at function entry), evaluating its phis, charging its cost and
// skipping reduced nests.
func (r *ssaRank) enter(f *frame, edge int, bc *blockCode) error {
	for edge >= 0 {
		rc := bc.reds[edge]
		if rc == nil {
			break
		}
		red := rc.red
		t, skip := r.skipTime(rc, f, bc)
		if !skip {
			break // run it
		}
		t += r.refetchCharge(f, rc)
		r.charge(t, red.ID)
		if red.Distributed {
			r.distributed += t
		}
		// Read before the nest's values are forgotten: an entry value's
		// slot may be a value of the nest's after it.
		rotated := rc.rot != nil && r.rotated(f, rc)
		// The appends' counts, from the values at entry, before the
		// nest's writes make memory unknown; nil (every slice unknown)
		// when they cannot be had.
		var grown []int64
		if len(rc.grows) > 0 {
			r.bindTo(f, rc)
			if n, err := red.GrowCounts(r.binder); err == nil && len(n) == len(rc.grows) {
				grown = n
			}
			r.unbind()
		}
		// A phi's length at exit, from its entry value, read before the
		// nest's values take the slots.
		var phiGrown []value
		if len(rc.phiGrows) > 0 {
			phiGrown = r.phiGrown(f, rc)
		}
		for i := range rc.writes {
			havocReach(r.get(f, &rc.writes[i]), 0)
		}
		for i := range rc.through {
			r.havocPath(f, &rc.through[i])
		}
		for i := range rc.grows {
			n := int64(-1)
			if grown != nil {
				n = grown[i]
			}
			r.grow(f, &rc.grows[i], n)
		}
		for i, slot := range rc.defs {
			if t := rc.defTypes[i]; t != nil {
				f.env[slot] = unknownOf(t)
			} else {
				f.env[slot] = unknown
			}
		}
		for i, v := range phiGrown {
			if v.k == vSlice {
				f.env[rc.phiGrows[i].slot] = v
			}
		}
		if rotated {
			r.setRotated(f, rc)
		}
		if rc.exit == nil {
			return r.errorf(bc.b.Instrs[0].Pos(), "internal error: reduced nest %s exits to a block of another function", red.ID)
		}
		edge, bc = rc.exitEdge, rc.exit
		if edge < 0 {
			return r.errorf(bc.b.Instrs[0].Pos(), "internal error: reduced nest %s exits by an edge that is not one", red.ID)
		}
	}
	r.chargeAt(bc.cost, bc.solo, bc.label)
	// Phis read their operands simultaneously.
	if edge >= 0 && len(bc.phis) > 0 && !bc.swap[edge] {
		// No phi reads another: assign in place.
		ops := bc.edges[edge]
		for i, slot := range bc.phis {
			f.env[slot] = r.get(f, &ops[i])
		}
	} else if edge >= 0 && len(bc.phis) > 0 {
		ops := bc.edges[edge]
		vals := r.shared.phiBuf[:0]
		for i := range ops {
			vals = append(vals, r.get(f, &ops[i]))
		}
		for i, slot := range bc.phis {
			f.env[slot] = vals[i]
		}
		clear(vals)
		r.shared.phiBuf = vals[:0]
	}
	f.block, f.bc, f.pc = bc.b, bc, 0
	if r.steps/hotSample != r.sampled {
		// Another hotSample instructions ran since the last sample: at a
		// block entry rather than per instruction, which costs less.
		r.sampled = r.steps / hotSample
		f.code.samples++
	}
	// The phis, already evaluated, are passed over as executed, unless
	// one of them would reach the step limit (run reports that).
	if n := int64(len(bc.phis)); n > 0 && r.steps+n <= r.limit {
		f.pc = int(n)
		r.steps += n
	}
	return nil
}

// jump moves f from its block to its successor i.
func (r *ssaRank) jump(f *frame, i int) error {
	bc := f.bc
	return r.enter(f, bc.succ[i], f.code.blocks[bc.b.Succs[i].Index])
}

// phiGrown is, for each PhiGrowth of rc, the slice its phi holds after
// the nest: its entry value lengthened by its count, its elements unknown;
// unknown when the count or the entry's length is. The slice is the
// rank's buffer, good until its next nest entry.
func (r *ssaRank) phiGrown(f *frame, rc *reduction) []value {
	r.bindTo(f, rc)
	n, err := rc.red.PhiGrowCounts(r.binder)
	r.unbind()
	if cap(r.phiGrownBuf) < len(rc.phiGrows) {
		r.phiGrownBuf = make([]value, len(rc.phiGrows))
	}
	out := r.phiGrownBuf[:len(rc.phiGrows)]
	clear(out)
	for i := range rc.phiGrows {
		pg := &rc.phiGrows[i]
		if err != nil || pg.index >= len(n) || n[pg.index] < 0 {
			continue
		}
		var length int64
		switch e := r.get(f, &pg.entry); e.k {
		case vSlice:
			length = e.n
		case vNil:
		default:
			continue
		}
		length += n[pg.index]
		out[i] = value{k: vSlice, obj: newObject(unknownOf(pg.elem), pg.elem), n: length, c: length}
	}
	return out
}

// grow lengthens the slice g reaches by n elements of unknown value (its
// old elements unknown too: the nest may have written them); with n < 0,
// or a path the values do not follow, what holds it becomes unknown.
func (r *ssaRank) grow(f *frame, g *growCode, n int64) {
	base := r.get(f, &g.path.base)
	var cell *object
	var at int64
	if v, ok := followPath(base, g.path.steps); ok {
		// v points to the struct or the variable holding the slice.
		step := MemRead{Field: g.g.Field}
		if g.g.Field < 0 {
			step.Field = FieldDeref
		}
		cell, at, _ = pathCell(v, step)
	}
	if cell == nil {
		havocValue(base)
		return
	}
	old := cell.get(at)
	var length int64
	switch old.k {
	case vSlice:
		length = old.n
		if old.obj != nil {
			old.obj.havoc() // appends may write into its spare capacity
		}
	case vNil:
	default:
		n = -1
	}
	if n < 0 {
		cell.set(at, unknown)
		return
	}
	length += n
	cell.set(at, value{k: vSlice, obj: newObject(unknownOf(g.g.Elem), g.g.Elem), n: length, c: length})
}

// pathCell is the cell one step of a path loads from v: the field of the
// struct v points to (Field >= 0), what v points to (FieldDeref), or
// element Index of the slice or array v (FieldElem).
func pathCell(v value, st MemRead) (*object, int64, bool) {
	if st.Field == FieldElem {
		if (v.k != vSlice && v.k != vArray) || v.obj == nil || st.Index < 0 || st.Index >= v.n {
			return nil, 0, false
		}
		return v.obj, v.i + st.Index, true
	}
	if v.k == vStruct && st.Field >= 0 {
		// A field of a struct value (a value receiver's d.n).
		if v.obj == nil {
			return nil, 0, false
		}
		return v.obj, int64(st.Field), true
	}
	if v.k != vPtr || v.obj == nil || v.c < 0 {
		return nil, 0, false
	}
	if st.Field == FieldDeref {
		return v.obj, v.i, true
	}
	s := v.obj.get(v.i)
	if v.c != 0 || s.k != vStruct || s.obj == nil {
		return nil, 0, false
	}
	return s.obj, int64(st.Field), true
}

// followPath is what the steps of a path load, one after another, from
// base.
func followPath(base value, steps []MemRead) (value, bool) {
	v := base
	for _, st := range steps {
		o, at, ok := pathCell(v, st)
		if !ok {
			return v, false
		}
		v = o.get(at)
	}
	return v, true
}

// havocPath makes the memory p reaches unknown, or its base's memory
// when the frame's values do not follow the path.
func (r *ssaRank) havocPath(f *frame, p *pathCode) {
	base := r.get(f, &p.base)
	if p.slot != nil && len(p.steps) > 0 {
		last := len(p.steps) - 1
		if parent, ok := followPath(base, p.steps[:last]); ok {
			if o, at, ok := pathCell(parent, p.steps[last]); ok {
				havocValue(o.get(at))
				o.set(at, unknownOf(p.slot))
				return
			}
		}
		havocValue(base)
		return
	}
	v, ok := followPath(base, p.steps)
	switch {
	case !ok:
		havocValue(base)
	case p.elems:
		if (v.k == vSlice || v.k == vArray) && v.obj != nil {
			v.obj.each(havocValue)
		} else {
			havocValue(base)
		}
	default:
		havocValue(v)
	}
}

// havocValue makes the memory v points to unknown.
func havocValue(v value) {
	switch v.k {
	case vPtr, vSlice, vStruct, vArray, vMap:
		if v.obj != nil {
			v.obj.havoc()
		}
	}
}

// havocReach makes the memory v points to unknown, as havocValue does;
// for a closure, the memory its free variables point to, for an
// interface, its dynamic value's: what a reduced nest that calls them
// may have written. (A library call's arguments keep havocValue: the
// closure a range-over-func loop gives its iterator holds the loop's
// exit state, which the code after the call branches on.)
func havocReach(v value, depth int) {
	if v.k != vFunc && v.k != vIface {
		havocValue(v)
	} else if v.obj != nil && depth < 8 {
		v.obj.each(func(c value) { havocReach(c, depth+1) })
	}
}

// run executes instructions until the rank makes an MPI call (returned) or
// finishes (OpFinish).
func (r *ssaRank) run() (Op, error) {
	limit := r.opts.MaxSteps
	if limit == 0 {
		limit = 2e9
	}
	r.limit = limit
	check := limit // the next step count at which to look up
	if slow := cmp.Or(r.opts.SlowAfter, SlowSteps); r.opts.Slow != nil && r.steps < slow {
		check = min(limit, slow)
	}
	for len(r.stack) > 0 {
		f := r.top()
		if f.pc >= len(f.block.Instrs) {
			return Op{}, r.errorf(f.fn.Pos(), "internal error: fell off block %d", f.block.Index)
		}
		in, ic := f.block.Instrs[f.pc], &f.bc.code[f.pc]
		f.pc++
		r.steps++
		if r.steps > check {
			if r.steps > limit {
				return Op{}, r.errorf(in.Pos(), "gave up after %d instructions of this rank (an endless loop on known values?); if the program really runs this long, raise the limit (--max-steps of predict speedup and validate)", limit)
			}
			r.opts.Slow(r.rank, r.steps, f.fn)
			check = limit
		}
		yield, err := r.step(f, in, ic)
		if pe, ok := err.(*PanicError); ok {
			// Deferred calls may recover it.
			err = r.unwind(pe)
		}
		if err != nil {
			return Op{}, err
		}
		if yield {
			op := r.op
			r.op = Op{}
			r.resumed = true
			return op, nil
		}
	}
	if !r.started {
		r.assume(r.mainPos, "main returned without starting the ranks (mpi.Main or mpi.Run) with these arguments: no rank ran, and the predicted times are its serial start-up alone")
	}
	return Op{Kind: OpFinish}, nil
}

// step executes in, f's current instruction, whose operands are ic.
// It reports whether the rank yields to the simulator with the MPI
// operation in r.op.
func (r *ssaRank) step(f *frame, in ssa.Instruction, ic *instrCode) (bool, error) {
	switch in := in.(type) {
	case *ssa.DebugRef, *ssa.Phi:
		// Phis were evaluated on block entry.
	case *ssa.Jump:
		return false, r.jump(f, 0)
	case *ssa.If:
		c := r.ref(f, &ic.a)
		next := 1
		if c.k == vBool {
			if c.i != 0 {
				next = 0
			}
			if r.lastGuess.valid && r.retreat(f, next) {
				return false, r.jump(f, r.lastGuess.other)
			}
		} else {
			taken, err := r.profiledBranch(f.bc, in)
			f.guessed = true
			if err != nil {
				return false, err
			}
			if taken {
				next = 0
			}
			r.lastGuess = guessPoint{f: f, bc: f.bc, other: 1 - next, depth: len(r.stack), effects: r.effects, valid: true}
		}
		return false, r.jump(f, next)
	case *ssa.Return:
		return r.ret(f, ic)
	case *ssa.Panic:
		v := r.get(f, &ic.a)
		pe := r.panicf(in.Pos(), "%s", panicValue(v)).(*PanicError)
		pe.val = v
		return false, pe
	case *ssa.Alloc:
		elem := in.Type().(*types.Pointer).Elem()
		r.set(f, value{k: vPtr, obj: newObject(zeroValue(elem), nil)})
	case *ssa.Store:
		p := r.get(f, &ic.a)
		if p.k == vNil {
			if err := r.panicf(in.Pos(), nilDeref); !r.excused(f, in.Pos(), err) {
				return false, err
			}
			break
		}
		r.effects++
		r.store(p, copyValue(r.get(f, &ic.b)))
	case *ssa.UnOp:
		x := r.get(f, &ic.a)
		if in.Op == token.MUL {
			if x.k == vNil {
				if err := r.panicf(in.Pos(), nilDeref); !r.excused(f, in.Pos(), err) {
					return false, err
				}
				r.set(f, unknownOf(in.Type()))
				break
			}
			if x.k == vPtr && x.obj != nil && x.c >= 0 {
				// A known cell: what load does, without asking for the type.
				r.set(f, copyValue(x.obj.get(x.i)))
			} else {
				r.set(f, copyValue(r.load(x, in.Type())))
			}
		} else if in.Op == token.ARROW {
			return false, r.errorf(in.Pos(), "unsupported construct: channel receive; %s", noChannels)
		} else {
			r.set(f, unop(in.Op, x, in.X.Type()))
		}
	case *ssa.BinOp:
		x, y := r.ref(f, &ic.a), r.ref(f, &ic.b)
		if x.k == vInt && y.k == vInt && ic.num == (numType{}) {
			// Most arithmetic is on int: done here, without binop's
			// generality (and its large stack frame).
			if v, ok := intFast(in.Op, x.i, y.i); ok {
				f.env[ic.dst] = v
				break
			}
		}
		v, err := binop(in.Op, x, y, ic.num)
		if err == errDivideByZero {
			if err := r.panicf(in.Pos(), "runtime error: %v", err); !r.excused(f, in.Pos(), err) {
				return false, err
			}
			v, err = unknownOf(in.Type()), nil
		}
		if err != nil {
			return false, r.errorf(in.Pos(), "%v", err)
		}
		r.set(f, v)
	case *ssa.Convert:
		r.set(f, convert(r.get(f, &ic.a), in.X.Type(), in.Type()))
	case *ssa.ChangeType:
		r.set(f, r.get(f, &ic.a))
	case *ssa.MultiConvert:
		r.set(f, unknown)
	case *ssa.ChangeInterface:
		r.set(f, r.get(f, &ic.a))
	case *ssa.SliceToArrayPointer:
		x := r.get(f, &ic.a)
		if x.k == vSlice {
			r.set(f, value{k: vPtr, obj: x.obj, i: x.i, c: -2}) // pointer to the array at offset
		} else {
			r.set(f, unknown)
		}
	case *ssa.MakeInterface:
		x := r.get(f, &ic.a)
		o := newObject(unknown, nil)
		o.set(0, copyValue(x))
		o.t = in.X.Type()
		r.set(f, value{k: vIface, obj: o})
	case *ssa.TypeAssert:
		x := r.get(f, &ic.a)
		v, failed := r.typeAssert(x, in)
		if failed && !in.CommaOk {
			if err := r.assertPanic(in.Pos(), x, in.X.Type(), in.AssertedType); err != nil {
				return false, err
			}
		}
		r.set(f, v)
	case *ssa.MakeClosure:
		o := newObject(unknown, nil)
		for i := range ic.args {
			o.set(int64(i), r.get(f, &ic.args[i]))
		}
		o.fn = in.Fn.(*ssa.Function)
		r.set(f, value{k: vFunc, obj: o})
	case *ssa.MakeSlice:
		n, c := r.get(f, &ic.a), r.get(f, &ic.b)
		if err := r.checkMakeSlice(in.Pos(), n, c); err != nil {
			if !r.excused(f, in.Pos(), err) {
				return false, err
			}
			n, c = unknown, unknown
		}
		s := r.makeSlice(n, c, in.Type())
		if r.opts.FirstTouch.on() {
			r.markFresh(in, s)
		}
		r.set(f, s)
	case *ssa.MakeMap:
		r.set(f, value{k: vMap, obj: &object{def: unknown, m: map[mapKey]value{}}})
	case *ssa.MakeChan:
		return false, r.errorf(in.Pos(), "unsupported construct: make(chan); %s", noChannels)
	case *ssa.Slice:
		v, err := r.slice(f, in, ic)
		if err != nil {
			if !r.excused(f, in.Pos(), err) {
				return false, err
			}
			v = unknownOf(in.Type())
		}
		r.set(f, v)
	case *ssa.FieldAddr:
		x := r.get(f, &ic.a)
		if x.k == vNil {
			if err := r.panicf(in.Pos(), nilDeref); !r.excused(f, in.Pos(), err) {
				return false, err
			}
			r.set(f, unknown)
			break
		}
		if x.k == vPtr && x.c == 0 {
			var s value
			if x.obj != nil {
				s = x.obj.get(x.i) // load of a known cell, without the type
			} else {
				s = r.load(x, in.X.Type().Underlying().(*types.Pointer).Elem())
			}
			if s.k == vStruct {
				r.set(f, value{k: vPtr, obj: s.obj, i: int64(in.Field)})
				break
			}
		}
		r.set(f, unknown)
	case *ssa.Field:
		x := r.get(f, &ic.a)
		if x.k == vStruct {
			r.set(f, x.obj.get(int64(in.Field)))
		} else {
			r.set(f, unknownOf(in.Type()))
		}
	case *ssa.IndexAddr:
		x, i := r.get(f, &ic.a), r.get(f, &ic.b)
		if err := r.checkIndex(in.Pos(), x, i, in.X.Type()); err != nil {
			if !r.excused(f, in.Pos(), err) {
				return false, err
			}
			r.set(f, unknown)
			break
		}
		r.set(f, r.indexAddr(x, i, in.X.Type()))
	case *ssa.Index:
		x, i := r.get(f, &ic.a), r.get(f, &ic.b)
		if err := r.checkIndex(in.Pos(), x, i, in.X.Type()); err != nil {
			if !r.excused(f, in.Pos(), err) {
				return false, err
			}
			r.set(f, unknownOf(in.Type()))
			break
		}
		switch {
		case x.k == vArray && i.k == vInt:
			r.set(f, x.obj.get(i.i))
		case x.k == vString && i.k == vInt && i.i >= 0 && i.i < int64(len(x.str())):
			r.set(f, intv(int64(x.str()[i.i])))
		default:
			r.set(f, unknownOf(in.Type()))
		}
	case *ssa.Lookup:
		r.set(f, r.lookup(r.get(f, &ic.a), r.get(f, &ic.b), in))
	case *ssa.MapUpdate:
		r.effects++
		m, k := r.get(f, &ic.a), r.get(f, &ic.b)
		if m.k == vNil {
			if err := r.panicf(in.Pos(), "assignment to entry in nil map"); !r.excused(f, in.Pos(), err) {
				return false, err
			}
			break
		}
		if m.k == vMap && m.obj.m != nil {
			if key, ok := keyOf(k); ok {
				m.obj.m[key] = copyValue(r.get(f, &ic.c))
			} else {
				m.obj.havoc()
			}
		}
	case *ssa.Extract:
		t := r.get(f, &ic.a)
		if t.k == vTuple {
			r.set(f, t.obj.get(int64(in.Index)))
		} else {
			r.set(f, unknownOf(in.Type()))
		}
	case *ssa.Range:
		r.set(f, r.rangeIter(r.get(f, &ic.a)))
	case *ssa.Next:
		r.set(f, r.next(r.get(f, &ic.a), in))
	case *ssa.Call:
		r.effects++
		return r.call(f, in, ic)
	case *ssa.Defer:
		r.effects++
		fn, args := r.callee(f, in.Common(), ic)
		// The arguments outlive the instruction: copy them out of argBuf.
		f.defers = append(f.defers, deferred{fn: fn, args: append([]value(nil), args...), cost: ic.callCost, in: in, ic: ic})
	case *ssa.RunDefers:
		return r.runDefersInTurn(f)
	case *ssa.Go:
		return false, r.errorf(in.Pos(), "unsupported construct: go statement; %s", noChannels)
	case *ssa.Send, *ssa.Select:
		return false, r.errorf(in.Pos(), "unsupported construct: channel send or select; %s", noChannels)
	default:
		return false, r.errorf(in.Pos(), "unsupported instruction %T", in)
	}
	return false, nil
}

// profiledBranch decides a branch on an unknown condition from the
// profiled frequency p by error diffusion: over n visits the first arm is
// taken floor(n p) or ceil(n p) times, deterministically. The likelier arm
// comes first, so a loop test that continues with p = 49/50 runs 49
// iterations and then exits, as the profiled loop did.
// noChannels says what to do about a goroutine or channel of a rank.
const noChannels = "a rank's own goroutines and channels have no model (the simulation runs each rank as one thread of MPI calls and compute): " +
	"do their work in the rank's code, or give it to more ranks with mpi calls, and predict again"

func (r *ssaRank) profiledBranch(bc *blockCode, in *ssa.If) (bool, error) {
	if !bc.branchAsked {
		bc.branchP, bc.branchOK = r.shared.oracle.BranchTaken(bc.b)
		bc.branchAsked = true
	}
	p := bc.branchP
	if !bc.branchOK {
		return false, r.errorf(in.Pos(), "branch on a value the interpreter cannot know (computed by skipped work or a library), and the profile has no frequency for it; profile the program again")
	}
	if !bc.branchNoted {
		// The same for every rank and visit: recorded once.
		r.assume(r.nearestPos(r.top()), "branch on an unknown value follows the profiled frequency %s", frequency(p))
		bc.branchNoted = true
	}
	r.guesses++
	r.guessBlock = bc.b
	if bc.exitGroup >= 0 {
		return r.loopExitTaken(bc, p), nil
	}
	for bc.id >= len(r.branch) {
		r.branch = append(r.branch, branchAcc{})
	}
	b := &r.branch[bc.id]
	if !b.seen && p >= 0.5 {
		b.acc = 1 - 1e-9
	}
	b.seen = true
	b.acc += p
	taken := b.acc >= 1
	if taken {
		b.acc--
	}
	return taken, nil
}

// loopExitTaken decides an exit test of a loop (bc.exitGroup) whose
// value the rank does not know, p the probability of Succs[0]: the loop's
// exit tests add their exit rates to one accumulator, and the test that
// brings it to its threshold leaves the loop, so that the loop runs as
// many iterations as the rates of the tests it evaluates give together.
// For a loop with one such test this is profiledBranch's error diffusion
// (the same decisions, counted in exits rather than in Succs[0]).
func (r *ssaRank) loopExitTaken(bc *blockCode, p float64) bool {
	for bc.exitGroup >= len(r.exits) {
		r.exits = append(r.exits, 0)
	}
	leave := p
	if bc.stay0 {
		leave = 1 - p
	}
	acc := &r.exits[bc.exitGroup]
	*acc += leave
	// profiledBranch starts a branch whose Succs[0] is the likelier
	// just short of taking it; in exits that is a threshold near 1 when
	// leaving is the rarer way and near 0 when it is the likelier.
	var exit bool
	switch {
	case bc.stay0 && leave <= 0.5:
		exit = *acc > 1-1e-9
	case bc.stay0:
		exit = *acc > 0
	case leave < 0.5:
		exit = *acc >= 1
	default:
		exit = *acc >= 1e-9
	}
	if exit {
		*acc--
	}
	return exit != bc.stay0
}

func (r *ssaRank) ret(f *frame, ic *instrCode) (bool, error) {
	var result value
	switch len(ic.args) {
	case 0:
	case 1:
		result = r.get(f, &ic.args[0])
	default:
		o := newObject(unknown, nil)
		for i := range ic.args {
			o.set(int64(i), r.get(f, &ic.args[i]))
		}
		result = value{k: vTuple, obj: o}
	}
	r.stack = r.stack[:len(r.stack)-1]
	onExit, retSlot := f.onExit, f.retSlot
	f.onExit = nil
	f.code.frames = append(f.code.frames, f)
	if onExit != nil {
		onExit()
	}
	if len(r.stack) > 0 {
		if retSlot >= 0 {
			r.top().env[retSlot] = result
		}
		r.top().guessed = r.top().guessed || f.guessed
	}
	return false, nil
}

// runDefersInTurn runs f's deferred calls at its RunDefers instruction,
// last first, as steps of the rank: a deferred call of the program's own
// function is pushed as a frame, after whose return RunDefers runs again
// for the next one, and a deferred MPI call (defer c.EndInterval(1),
// defer c.Barrier()) yields its operation to the simulator as a call does.
// Library calls are charged their profiled time.
func (r *ssaRank) runDefersInTurn(f *frame) (bool, error) {
	for len(f.defers) > 0 {
		d := f.defers[len(f.defers)-1]
		f.defers = f.defers[:len(f.defers)-1]
		fn := d.fn.fun()
		if fn != nil && r.shared.oracle.IsUser(fn) {
			f.pc-- // RunDefers again once the call returns
			return false, r.pushCall(fn, d.args, d.fn.obj, -1)
		}
		if fn != nil {
			if ci := r.shared.callee(fn); ci.mpi {
				if ci.mpiQuery != queryNone || ci.mpiName == "Wtime" {
					continue // a query whose answer no one reads
				}
				return r.deferredMPI(f, d, ci)
			}
		}
		r.charge(d.cost, "")
	}
	return false, nil
}

// deferredMPI runs deferred MPI call d of f, whose results are not read;
// the calls that return a request or start ranks are refused.
func (r *ssaRank) deferredMPI(f *frame, d deferred, ci *calleeInfo) (bool, error) {
	switch ci.mpiName {
	case "Isend", "Irecv", "Main", "Run":
		return false, r.errorf(d.in.Pos(), "unsupported construct: deferred mpi.%s (its result is lost; call it directly)", ci.mpiName)
	}
	ic := *d.ic
	ic.dst, ic.unused = -1, true
	op, yield, err := r.mpiCall(f, d.in, &ic, ci, d.args)
	d.ic.site = ic.site
	if err != nil || !yield {
		if err == nil {
			f.pc-- // the next deferred call
		}
		return false, err
	}
	r.op = op
	f.pc-- // RunDefers again once the operation completes
	return true, nil
}

// runDefers runs f's deferred calls to completion, for a panic that
// unwinds f: a deferred call that makes an MPI call is refused there.
func (r *ssaRank) runDefers(f *frame) (bool, error) {
	for len(f.defers) > 0 {
		d := f.defers[len(f.defers)-1]
		f.defers = f.defers[:len(f.defers)-1]
		if fn := d.fn.fun(); fn != nil && r.shared.oracle.IsUser(fn) {
			// Run the deferred user call to completion before going on.
			depth := len(r.stack)
			if err := r.pushCall(fn, d.args, d.fn.obj, -1); err != nil {
				return false, err
			}
			for len(r.stack) > depth {
				t := r.top()
				in, ic := t.block.Instrs[t.pc], &t.bc.code[t.pc]
				t.pc++
				yield, err := r.step(t, in, ic)
				if err != nil {
					return false, err
				}
				if yield {
					r.op = Op{}
					return false, r.errorf(in.Pos(), "unsupported construct: MPI call inside a deferred function")
				}
			}
			continue
		}
		r.charge(d.cost, "")
	}
	return false, nil
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

func (r *ssaRank) slice(f *frame, in *ssa.Slice, ic *instrCode) (value, error) {
	x := r.get(f, &ic.a)
	var lo, hi, max value = intv(0), unknown, unknown
	if in.Low != nil {
		lo = r.get(f, &ic.b)
	}
	if in.High != nil {
		hi = r.get(f, &ic.c)
	}
	if in.Max != nil {
		max = r.get(f, &ic.d)
	}
	if err := r.checkSlice(in.Pos(), x, lo, hi, max); err != nil {
		return unknown, err
	}
	return r.sliceOf(x, in, lo, hi, max), nil
}

// sliceOf is x[lo:hi:max] (absent bounds unknown), bounds checked.
func (r *ssaRank) sliceOf(x value, in *ssa.Slice, lo, hi, max value) value {
	switch x.k {
	case vString:
		l, h := lo.i, int64(len(x.str()))
		if in.High != nil {
			h = hi.i
		}
		if lo.k != vInt || (in.High != nil && hi.k != vInt) || l < 0 || h > int64(len(x.str())) || l > h {
			return unknown
		}
		return strv(x.str()[l:h])
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
		if v.k == vFloat {
			// Floats are keys by value (-0 is 0), not by bits.
			return mapKey{k: v.k, f: v.fl()}, true
		}
		return mapKey{k: v.k, i: v.i, s: v.str()}, true
	}
	return mapKey{}, false
}

func (r *ssaRank) lookup(m, k value, in *ssa.Lookup) value {
	if m.k == vString {
		if k.k == vInt && k.i >= 0 && k.i < int64(len(m.str())) {
			return intv(int64(m.str()[k.i]))
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
		it.s = x.str()
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
	return value{k: vOpaque, sp: &nameIter, obj: o}
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
		if k.k == vFloat {
			o.set(1, floatv(k.f))
		} else {
			v := value{k: k.k, i: k.i}
			if k.k == vString {
				v = strv(k.s)
			}
			o.set(1, v)
		}
		o.set(2, it.m[k])
		it.pos++
	}
	return value{k: vTuple, obj: o}
}

// typeAssert is x.(T) (a tuple with comma-ok); failed says that x is
// known not to hold a T, or to be nil.
func (r *ssaRank) typeAssert(x value, in *ssa.TypeAssert) (v value, failed bool) {
	ok := false
	if x.k == vIface && x.obj != nil && x.obj.t != nil {
		if types.Identical(x.obj.t, in.AssertedType) {
			v, ok = x.obj.get(0), true
		} else if iface, isIface := in.AssertedType.Underlying().(*types.Interface); isIface && types.Implements(x.obj.t, iface) {
			v, ok = x, true
		}
	}
	known := x.k == vIface && x.obj != nil && x.obj.t != nil || x.k == vNil
	if !ok {
		v = zeroValue(in.AssertedType)
		if !known {
			v = unknownOf(in.AssertedType)
		}
	}
	failed = known && !ok
	if !in.CommaOk {
		return v, failed
	}
	o := newObject(unknown, nil)
	o.set(0, v)
	if known {
		o.set(1, boolv(ok))
	}
	return value{k: vTuple, obj: o}, failed
}

// charge adds t of compute, labelled with the region it belongs to.
func (r *ssaRank) charge(t float64, label string) {
	solo := 1.0
	if r.soloer != nil {
		if label != r.soloLabel || !r.soloKnown {
			r.soloLabel, r.soloFactor, r.soloKnown = label, r.soloer.SoloFactor(label), true
		}
		solo = r.soloFactor
	}
	r.chargeAt(t, solo, label)
}

// chargeAt is charge with the charge's SoloFactor given: a block's is
// found when its function is compiled (blocks are most charges, and
// their labels alternate within a loop).
func (r *ssaRank) chargeAt(t, solo float64, label string) {
	r.compute += t
	r.soloCompute += t * solo
	if label != r.runLabel {
		r.endRun()
		r.runLabel = label
	}
	r.runSum += t
}

// endRun closes the current run of equal labels.
func (r *ssaRank) endRun() {
	if r.runLabel != "" && r.runSum > r.topSum {
		r.topLabel, r.topSum = r.runLabel, r.runSum
	}
	r.runLabel, r.runSum = "", 0
}
