package profiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// probeName is the local name of the probe import in instrumented files;
// the leading underscore keeps it clear of the user's identifiers.
const probeName = "_pprobe"

// Instrumented is the result of instrumenting a program.
type Instrumented struct {
	Regions []*region
	// Files maps each changed file's path to its instrumented text. Line
	// numbers are unchanged: probes are inserted within lines, so positions
	// reported by the runtime (MPI call sites) still match the source.
	Files map[string][]byte
	uses  map[*types.Func]*funcUse
	// dynamic holds the interface methods the program calls, by name.
	dynamic map[string][]*types.Func
	// implementations caches onlyImplementation: each interface method's
	// one implementation in the program, or nil.
	implementations map[*types.Func]*types.Func
}

// InstrOptions say how Instrument places probes.
type InstrOptions struct {
	// VecLoops are the IDs of the loops that also get per-iteration timing
	// probes, when their iterations are coarse enough (see enterLoop).
	VecLoops map[string]bool
	// Timing instruments for the timed runs, where every target is timed:
	// loops get Span timers, whose state stays out of the registers of
	// the code they time, and nothing counts locally for untimed probes.
	Timing bool
}

// Instrument places probes at targets in a copy of prog's files. The
// user's files are only read.
func Instrument(prog *Program, targets []Target, opts InstrOptions) (*Instrumented, error) {
	type key struct {
		n ast.Node
		k Kind
	}
	byNode := make(map[key]*Target, len(targets))
	for i := range targets {
		t := &targets[i]
		byNode[key{t.Node, t.Kind}] = t
	}
	in := &Instrumented{Files: map[string][]byte{}, uses: map[*types.Func]*funcUse{}, dynamic: map[string][]*types.Func{},
		implementations: map[*types.Func]*types.Func{}}
	for _, pkg := range prog.Packages {
		for i, f := range pkg.Syntax {
			path := pkg.CompiledGoFiles[i]
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("profiler: %w", err)
			}
			fi := &fileInstr{in: in, prog: prog, pkg: pkg, file: f, path: path, src: src, vecLoops: opts.VecLoops, timing: opts.Timing,
				find: func(n ast.Node, k Kind) *Target { return byNode[key{n, k}] }}
			out, err := fi.run()
			if err != nil {
				return nil, err
			}
			if out != nil {
				in.Files[path] = out
			}
		}
	}
	in.markMPIHolders(prog)
	return in, nil
}

// fileInstr instruments one file.
type fileInstr struct {
	in   *Instrumented
	prog *Program
	pkg  *packages.Package
	file *ast.File
	path string
	src  []byte
	find func(ast.Node, Kind) *Target
	// vecLoops are the loops that get per-iteration probes, if eligible.
	vecLoops map[string]bool
	timing   bool // InstrOptions.Timing

	edits    []edit
	regs     []int    // open regions, innermost last
	frames   []*frame // enclosing functions, innermost last
	rankLits map[*ast.FuncLit]bool
	extra    []string // declarations appended to the file
	// addressed are the variables whose address the file takes, once
	// asked (addressTaken).
	addressed map[types.Object]bool
	callPos   map[*ast.Ident]bool
	// valueLogicals are the file's && and || whose value is used
	// (ValueTests), once asked.
	valueLogicals map[*ast.BinaryExpr]bool
}

// frame is one enclosing function during the walk.
type frame struct {
	loops   []*loopInfo
	decl    *types.Func
	lit     bool
	hasGoto bool
	// fnLit is the function literal of the frame when it is not a rank
	// body (whose regions are its enclosing function's).
	fnLit *ast.FuncLit
}

type loopInfo struct {
	reg    *region
	label  string
	inner  bool  // nested in another loop of the same function
	timing bool  // instrumented for the timing binary: a Span timer
	count  []int // arms and call sites counted in local variables
	accs   []int // directly nested loops accumulated in local variables
	// derive add counts to the loop's local counters at its exit instead
	// of at every iteration: its exit tests' outcomes (derivedTests), the
	// then arms that test its induction variable (rangeArm).
	derive []string
	// start is the source of the loop's first induction value when a
	// then arm needs it at the exit (rangeArm), kept in _pj<loop> at entry.
	start string
	// home is the outermost loop of the function around this one (the
	// loop itself if none, or in a function with goto): the local
	// counters and accumulators of the loops it holds (hosted) are
	// declared and flushed there, once per entry of the nest instead of
	// once per entry of each inner loop (heat's row loop flushed its
	// column loop's counters 254 times per call).
	home   *loopInfo
	hosted []*loopInfo
	// rect: an inner loop that runs once per iteration of its enclosing
	// loop with a trip count (trip) that loop does not change
	// (rectangular): it has no probe of its own, and its entries are
	// recorded at the enclosing loop's exit (rects, probe.Loops).
	rect  bool
	trip  string
	rects []*loopInfo
}

// nest is l and the loops whose counters it holds.
func (l *loopInfo) nest() []*loopInfo {
	if l.home != l {
		return nil
	}
	return append([]*loopInfo{l}, l.hosted...)
}

// decls declares the local counters of loop l.
func (l *loopInfo) decls() string {
	var b strings.Builder
	for _, y := range l.nest() {
		for _, k := range y.count {
			fmt.Fprintf(&b, "var _pl%d int64; ", k)
		}
		for _, k := range y.accs {
			fmt.Fprintf(&b, "var _pa%d %s.Acc; ", k, probeName)
		}
	}
	if l.start != "" {
		fmt.Fprintf(&b, "_pj%d := int64(%s); ", l.reg.Index, l.start)
	}
	return b.String()
}

// flush records one entry of loop l and flushes its local counters.
func (l *loopInfo) flush() string {
	var b strings.Builder
	for _, d := range l.derive {
		b.WriteString(d)
	}
	for _, y := range l.nest() {
		for _, k := range y.count {
			fmt.Fprintf(&b, "%s.Add(%d, _pl%d); ", probeName, k, k)
		}
		for _, k := range y.accs {
			fmt.Fprintf(&b, "%s.AddAcc(%d, &_pa%d); ", probeName, k, k)
		}
	}
	k := l.reg.Index
	for _, c := range l.rects {
		fmt.Fprintf(&b, "if _pn%d > 0 { %s.Loops(%d, _pn%d, %s) }; ", k, probeName, c.reg.Index, k, c.trip)
	}
	if l.rect {
		return b.String()
	}
	switch {
	case l.timing && l.reg.counted:
		fmt.Fprintf(&b, "_pt%d.EndN(%d, _pn%d); ", k, k, k)
	case l.timing:
		fmt.Fprintf(&b, "_pt%d.End(%d); ", k, k)
	case l.inner:
		fmt.Fprintf(&b, "if _pt%d != 0 { %s.Loop(%d, _pn%d, _pt%d) } else { _pa%d.Add(_pn%d) }; ", k, probeName, k, k, k, k, k)
	default:
		fmt.Fprintf(&b, "%s.Loop(%d, _pn%d, _pt%d); ", probeName, k, k, k)
	}
	if l.reg.vecProbe {
		fmt.Fprintf(&b, "_pv%d.Done(); ", k)
	}
	return b.String()
}

// counter returns the statement that counts one execution of region k:
// a local increment inside a loop, an atomic one elsewhere.
func (fi *fileInstr) counter(k int) string {
	if loops := fi.top().loops; len(loops) > 0 {
		l := loops[len(loops)-1]
		l.count = append(l.count, k)
		return fmt.Sprintf("_pl%d++", k)
	}
	return fmt.Sprintf("%s.Inc(%d)", probeName, k)
}

// edit inserts text at off, or replaces src[off:end] with it.
type edit struct {
	off, end int
	text     string
	gen      func() string // text known only after the walk
	close    bool          // ends a construct: goes before openings at the same offset
	span     int           // size of the construct: outer openings first, inner closings first
}

func (fi *fileInstr) offset(p token.Pos) int { return fi.prog.Fset.Position(p).Offset }

// source is the text of n in the original file.
func (fi *fileInstr) source(n ast.Node) string {
	return string(fi.src[fi.offset(n.Pos()):fi.offset(n.End())])
}

func (fi *fileInstr) open(p token.Pos, span int, text string) {
	fi.edits = append(fi.edits, edit{off: fi.offset(p), end: -1, text: text, span: span})
}

func (fi *fileInstr) closeAt(p token.Pos, span int, text string) {
	fi.edits = append(fi.edits, edit{off: fi.offset(p), end: -1, text: text, close: true, span: span})
}

func (fi *fileInstr) newRegion(t *Target) *region {
	r := &region{Target: *t, Index: len(fi.in.Regions), Parent: -1}
	if len(fi.regs) > 0 {
		r.Parent = fi.regs[len(fi.regs)-1]
	}
	r.Line = fi.prog.Fset.Position(t.Node.Pos()).Line
	r.End = fi.prog.Fset.Position(t.Node.End()).Line
	if fr := fi.top(); fr != nil {
		r.decl, r.lit, r.fnLit = fr.decl, fr.lit, fr.fnLit
		for _, l := range fr.loops {
			r.inTight = r.inTight || l.reg.tight
		}
	}
	fi.in.Regions = append(fi.in.Regions, r)
	return r
}

func (fi *fileInstr) top() *frame {
	if len(fi.frames) == 0 {
		return nil
	}
	return fi.frames[len(fi.frames)-1]
}

func span(n ast.Node) int { return int(n.End() - n.Pos()) }

// run walks the file and applies the edits; nil means no change.
func (fi *fileInstr) run() ([]byte, error) {
	fi.rankLits = map[*ast.FuncLit]bool{}
	fi.callPos = map[*ast.Ident]bool{}
	for _, d := range fi.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		obj, _ := fi.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
		fi.frames = []*frame{{decl: obj, hasGoto: hasGoto(fd.Body)}}
		fi.regs = nil
		if t := fi.find(fd, FuncBody); t != nil {
			r := fi.newRegion(t)
			r.declBody = true
			text := bodyTimer(r.Index)
			if fi.pkg.Name == "main" && fd.Recv == nil && fd.Name.Name == "main" {
				text = fmt.Sprintf("defer %s.Flush(); ", probeName) + text
			}
			fi.open(fd.Body.Lbrace+1, span(fd.Body), text)
			fi.regs = append(fi.regs, r.Index)
		}
		fi.walk(fd.Body)
	}
	fi.recordValueUses()
	if len(fi.edits) == 0 {
		return nil, nil
	}
	fi.closeAt(fi.file.Name.End(), 0, fmt.Sprintf("; import %s %q", probeName, probePath))
	return fi.apply(), nil
}

// walk visits a function body (or part of one).
func (fi *fileInstr) walk(root ast.Node) {
	var stack []ast.Node
	var pops []func()
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			if f := pops[len(pops)-1]; f != nil {
				f()
			}
			pops = pops[:len(pops)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		pops = append(pops, fi.enter(n, parent))
		return true
	})
}

// enter handles a node and returns what to undo when leaving it.
func (fi *fileInstr) enter(n, parent ast.Node) func() {
	switch n := n.(type) {
	case *ast.FuncLit:
		return fi.enterLit(n)
	case *ast.ForStmt:
		return fi.enterLoop(n, n.Body, parent, n.Cond == nil && !breaksOut(n.Body, label(parent)))
	case *ast.RangeStmt:
		return fi.enterLoop(n, n.Body, parent, false)
	case *ast.IfStmt:
		fi.enterIf(n, parent)
		for _, e := range testLeaves(nil, n.Cond) {
			fi.countBranchTest(e)
		}
	case *ast.SwitchStmt:
		if t := fi.find(n, CaseArm); t != nil {
			// The executions that match no clause, in a default clause
			// added to a switch without one (ClauseID).
			r := fi.newRegion(t)
			fi.open(n.Body.Rbrace, 0, "default: "+fi.counter(r.Index)+"; ")
		}
		for _, e := range caseTests(n) {
			fi.countBranchTest(e)
		}
	case *ast.BinaryExpr:
		if n.Op != token.LAND && n.Op != token.LOR {
			break
		}
		if fi.valueLogicals == nil {
			fi.valueLogicals = valueLogicals(fi.file)
		}
		if fi.valueLogicals[n] {
			for _, e := range ValueTests(nil, n) {
				fi.countBranchTest(e)
			}
		}
	case *ast.CaseClause:
		if t := fi.find(n, CaseArm); t != nil {
			r := fi.newRegion(t)
			fi.open(n.Colon+1, span(n), " "+fi.counter(r.Index)+";")
		}
	case *ast.CommClause:
		if t := fi.find(n, CaseArm); t != nil {
			r := fi.newRegion(t)
			fi.open(n.Colon+1, span(n), " "+fi.counter(r.Index)+";")
		}
	case *ast.ReturnStmt:
		if pop, ok := fi.enterReturnCall(n); ok {
			return pop
		}
		fi.flushLoops(n.Pos(), 0)
		return fi.returnParent()
	case *ast.BranchStmt:
		if n.Label != nil && (n.Tok == token.BREAK || n.Tok == token.CONTINUE) {
			loops := fi.top().loops
			for i := len(loops) - 1; i >= 0; i-- {
				if loops[i].label == n.Label.Name {
					fi.flushLoops(n.Pos(), i+1)
					break
				}
			}
		}
	case *ast.CallExpr:
		pop := fi.enterInlineCall(n)
		fi.enterCall(n)
		return pop
	case ast.Stmt:
		return fi.enterCallStmt(n, parent)
	}
	return nil
}

// bodyTimer times a function body when the region is timed; untimed
// bodies cost one inlined check, and their executions are known from
// their call sites.
func bodyTimer(k int) string {
	return fmt.Sprintf("if _pf%d := %s.Start(%d); _pf%d != 0 { defer %s.Stop(%d, _pf%d) }; ", k, probeName, k, k, probeName, k, k)
}

func label(parent ast.Node) string {
	if l, ok := parent.(*ast.LabeledStmt); ok {
		return l.Label.Name
	}
	return ""
}

func (fi *fileInstr) enterLit(n *ast.FuncLit) func() {
	outer := fi.top()
	rank := fi.rankLits[n]
	fr := &frame{decl: outer.decl, lit: outer.lit || !rank, hasGoto: outer.hasGoto, fnLit: outer.fnLit}
	if !rank {
		fr.fnLit = n
	}
	fi.frames = append(fi.frames, fr)
	nregs := len(fi.regs)
	if t := fi.find(n, FuncBody); t != nil {
		r := fi.newRegion(t)
		r.rank = rank
		fi.open(n.Body.Lbrace+1, span(n.Body), bodyTimer(r.Index))
		fi.regs = append(fi.regs, r.Index)
	}
	return func() {
		fi.frames = fi.frames[:len(fi.frames)-1]
		fi.regs = fi.regs[:nregs]
	}
}

func (fi *fileInstr) enterLoop(n ast.Stmt, body *ast.BlockStmt, parent ast.Node, terminating bool) func() {
	t := fi.find(n, Loop)
	if t == nil {
		return nil
	}
	fr := fi.top()
	r := fi.newRegion(t)
	r.outer = len(fr.loops) == 0
	// Per-iteration times are for coarse iterations: an outermost loop
	// whose body holds a loop or calls a function of the program (a row
	// of a distributed nest). A flat loop over elements would pay a check
	// per element for a vector it never gets.
	r.vec = r.outer && (hasLoop(body) || fi.callsUser(body))
	r.tight = fi.callFree(body)
	k := r.Index
	li := &loopInfo{reg: r, label: label(parent), inner: !r.outer, timing: fi.timing}
	li.home = li
	var p *loopInfo // the enclosing loop, in the counting binary
	if li.inner && !fi.timing {
		p = fr.loops[len(fr.loops)-1]
		p.accs = append(p.accs, k)
		if !fr.hasGoto {
			li.home = fr.loops[0]
			li.home.hosted = append(li.home.hosted, li)
		}
	}
	start := n.Pos()
	if l, ok := parent.(*ast.LabeledStmt); ok {
		start = l.Pos()
	}
	trip := tripExpr(fi.pkg.TypesInfo, n, body, label(parent), fi.source)
	// With the trip count known at entry there is no increment per
	// iteration.
	r.counted = trip == ""
	var pre, in string
	switch {
	case fi.timing && r.counted:
		pre = fmt.Sprintf("{ var _pn%d int64; var _pt%d %s.Span; _pt%d.Begin(%d, -1); ", k, k, probeName, k, k)
		in = fmt.Sprintf("_pn%d++; ", k)
	case fi.timing:
		pre = fmt.Sprintf("{ var _pt%d %s.Span; _pt%d.Begin(%d, %s); ", k, probeName, k, k, trip)
	case r.counted:
		pre = fmt.Sprintf("{ var _pn%d int64; _pt%d := %s.LoopStart(%d); ", k, k, probeName, k)
		in = fmt.Sprintf("_pn%d++; ", k)
	default:
		pre = fmt.Sprintf("{ _pn%d := %s; _pt%d := %s.LoopStart(%d); ", k, trip, k, probeName, k)
	}
	// The recorder is taken once the loop's timer runs: taking it before
	// changed how the compiler laid out matmul's kernel (its vector binary
	// ran 1.36-1.46 times as long as the program, against 0.95-1.05). It
	// costs an atomic swap there (the recorder is prepared); Done, which
	// merges the entry, runs after the timer stops.
	r.vecProbe = r.vec && fi.vecLoops[r.ID]
	if r.vecProbe {
		pre += fmt.Sprintf("_pv%d := %s.NewVec(%d); ", k, probeName, k)
		in += fmt.Sprintf("_pv%d.Tick(); ", k)
	}
	if terminating && !fi.timing {
		pre += fmt.Sprintf("_, _ = _pn%d, _pt%d; ", k, k)
	}
	// A loop hosted by another one is an inner loop of the counting binary
	// outside functions with goto.
	rectIn := li.home != li && trip != "" && fi.rectangular(n, parent, p)
	opening := func() string {
		if !li.rect {
			return pre + li.decls()
		}
		// What its exit still needs: the trip count of the entry for its
		// own rectangular loops and derived counts, and (decls: a hosted
		// loop declares no counters) the first value for its range arms.
		open := "{ "
		if len(li.rects) > 0 || len(li.derive) > 0 {
			open += fmt.Sprintf("_pn%d := %s; ", k, trip)
		}
		return open + li.decls()
	}
	fi.edits = append(fi.edits, edit{off: fi.offset(start), end: -1, span: int(n.End() - start), gen: opening})
	fi.open(body.Lbrace+1, span(body), in)
	post := func() string {
		if terminating {
			return " }"
		}
		return "; " + li.flush() + "}"
	}
	fi.edits = append(fi.edits, edit{off: fi.offset(n.End()), end: -1, close: true, span: int(n.End() - start), gen: post})
	fr.loops = append(fr.loops, li)
	fi.regs = append(fi.regs, k)
	if !fi.timing {
		fi.countTests(li, n)
	}
	return func() {
		fr.loops = fr.loops[:len(fr.loops)-1]
		fi.regs = fi.regs[:len(fi.regs)-1]
		if rectIn {
			li.rect, li.trip = true, trip
			p.accs = slices.DeleteFunc(p.accs, func(a int) bool { return a == k })
			p.rects = append(p.rects, li)
		}
	}
}

// rectangular reports whether inner loop n, whose trip count is known at
// entry, runs once per iteration of its enclosing loop p with the same
// trip count: n is a statement of p's body, p leaves only by its
// condition and never continues, makes no call, and the bounds of n are
// invariant in p. Then n's entries can be recorded at p's exit, from
// p's iterations and n's trip count evaluated there.
func (fi *fileInstr) rectangular(n ast.Stmt, parent ast.Node, p *loopInfo) bool {
	body := loopBody(p.reg.Node)
	if parent != body || leavesEarly(body, p.label) || continues(body) || !fi.callFree(p.reg.Node) {
		return false
	}
	var bounds []ast.Expr
	switch l := n.(type) {
	case *ast.RangeStmt:
		bounds = []ast.Expr{l.X}
	case *ast.ForStmt:
		_, start, ok := inductionVar(fi.pkg.TypesInfo, l)
		cond, isBin := l.Cond.(*ast.BinaryExpr)
		if !ok || !isBin {
			return false
		}
		bounds = []ast.Expr{start, cond.Y}
	default:
		return false
	}
	for _, e := range bounds {
		if !fi.invariant(e, p.reg.Node) {
			return false
		}
	}
	return true
}

// countTests counts the outcomes of each of a loop's exit tests
// (ExitTests) in local counters of the loop, flushed with its others.
func (fi *fileInstr) countTests(li *loopInfo, loop ast.Stmt) {
	tests := ExitTests(loop)
	if tests == nil || !plainBools(fi.pkg.TypesInfo, tests) {
		return
	}
	t := li.reg.Target
	regs := make([][2]int, len(tests)) // each test's counters: on true, on false
	for i, e := range tests {
		onTrue := fi.newRegion(&Target{ID: TestID(t.ID, i, true), Kind: TestTrue, Node: e, File: t.File, Func: t.Func})
		onFalse := fi.newRegion(&Target{ID: TestID(t.ID, i, false), Kind: TestFalse, Node: e, File: t.File, Func: t.Func})
		li.count = append(li.count, onTrue.Index, onFalse.Index)
		regs[i] = [2]int{onTrue.Index, onFalse.Index}
	}
	if cont, ok := fi.derivableTests(loop, li.label, tests); ok {
		li.derive = append(li.derive, derivedTests(li.reg.Index, tests, cont, regs, fi.source))
		return
	}
	for i, e := range tests {
		fi.open(e.Pos(), span(e), fmt.Sprintf("%s.Test(&_pl%d, &_pl%d, ", probeName, regs[i][0], regs[i][1]))
		fi.closeAt(e.End(), span(e), ")")
	}
}

// countBranchTest counts the outcomes of branch test e (BranchTests) in
// the counting binary when the model's targets ask for it: in local
// counters of the innermost loop around it, flushed with its others, or
// outside loops in the regions themselves. The wrapping is outermost
// around e (its span one more than e's), so that a call of e timed in
// place stays inside it.
func (fi *fileInstr) countBranchTest(e ast.Expr) {
	onTrue, onFalse := fi.find(e, TestTrue), fi.find(e, TestFalse)
	if fi.timing || onTrue == nil || onFalse == nil || !plainBools(fi.pkg.TypesInfo, []ast.Expr{e}) {
		return
	}
	t, f := fi.newRegion(onTrue), fi.newRegion(onFalse)
	wrap := fmt.Sprintf("%s.TestAt(%d, %d, ", probeName, t.Index, f.Index)
	if loops := fi.top().loops; len(loops) > 0 {
		l := loops[len(loops)-1]
		l.count = append(l.count, t.Index, f.Index)
		wrap = fmt.Sprintf("%s.Test(&_pl%d, &_pl%d, ", probeName, t.Index, f.Index)
	}
	fi.open(e.Pos(), span(e)+1, wrap)
	fi.closeAt(e.End(), span(e)+1, ")")
}

// derivableTests reports whether the outcomes of a loop's exit tests
// follow from its iterations and from the tests evaluated once more at
// its exit, and gives the value with which each test lets the loop go
// on. That holds for a for loop whose condition is a conjunction of its
// tests (&&, and || under a !) and that leaves only by its condition:
// every iteration evaluated every test to its value going on, and the
// evaluation that ended the loop stopped at the first test that did
// not; tests without effects evaluate to the same at the exit, where
// nothing has run since. Counting each evaluation instead cost
// mandelbrot's escape loop two counters per iteration (7 % of the loop
// in a test copy). Tests that read variables of the loop's init
// statement cannot be evaluated after it.
func (fi *fileInstr) derivableTests(loop ast.Stmt, lbl string, tests []ast.Expr) ([]bool, bool) {
	f, ok := loop.(*ast.ForStmt)
	if !ok || f.Cond == nil || leavesEarly(f.Body, lbl) {
		return nil, false
	}
	leaves, cont, ok := conjunction(f.Cond, false, nil, nil)
	if !ok || len(leaves) != len(tests) {
		return nil, false
	}
	for i, e := range leaves {
		if e != tests[i] || !fi.reevaluable(e) || fi.readsInit(e, f.Init) {
			return nil, false
		}
	}
	return cont, true
}

// conjunction appends the leaves of cond, a conjunction when neg is
// false (its negation when true), and the value each leaf must have for
// the conjunction to hold; ok is false when cond is not one.
func conjunction(cond ast.Expr, neg bool, leaves []ast.Expr, cont []bool) ([]ast.Expr, []bool, bool) {
	switch x := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch {
		case x.Op == token.LAND && !neg, x.Op == token.LOR && neg:
			leaves, cont, ok := conjunction(x.X, neg, leaves, cont)
			if !ok {
				return nil, nil, false
			}
			return conjunction(x.Y, neg, leaves, cont)
		case x.Op == token.LAND, x.Op == token.LOR:
			return nil, nil, false
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return conjunction(x.X, !neg, leaves, cont)
		}
	}
	return append(leaves, ast.Unparen(cond)), append(cont, !neg), true
}

// reevaluable reports whether evaluating e once more gives the same
// value without effects: no calls but conversions, len and cap, no
// function literals, no channel receives.
func (fi *fileInstr) reevaluable(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			ok = fi.valueCall(n)
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		}
		return ok
	})
	return ok
}

// valueCall reports whether a call only computes a value from its
// arguments: a conversion, len or cap.
func (fi *fileInstr) valueCall(c *ast.CallExpr) bool {
	if tv, ok := fi.pkg.TypesInfo.Types[c.Fun]; ok && tv.IsType() {
		return true
	}
	b, ok := typeutil.Callee(fi.pkg.TypesInfo, c).(*types.Builtin)
	return ok && (b.Name() == "len" || b.Name() == "cap")
}

// readsInit reports whether e uses a variable declared by init.
func (fi *fileInstr) readsInit(e ast.Expr, init ast.Stmt) bool {
	if init == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := fi.pkg.TypesInfo.Uses[id]; obj != nil && obj.Pos() >= init.Pos() && obj.Pos() < init.End() {
				found = true
			}
		}
		return !found
	})
	return found
}

// derivedTests is the code that adds one entry's test outcomes of loop k
// (derivableTests) to the tests' local counters: every iteration's, and
// those of the evaluation that ended the loop, the tests taken again in
// order until the first that does not have its value going on.
func derivedTests(k int, tests []ast.Expr, cont []bool, regs [][2]int, source func(ast.Node) string) string {
	side := func(i int, goesOn bool) int {
		if cont[i] == goesOn {
			return regs[i][0]
		}
		return regs[i][1]
	}
	var b strings.Builder
	for i := range tests {
		fmt.Fprintf(&b, "_pl%d += _pn%d; ", side(i, true), k)
	}
	for i, e := range tests {
		if i > 0 {
			b.WriteString(" else ")
		}
		not := "!"
		if !cont[i] {
			not = ""
		}
		fmt.Fprintf(&b, "if %s(%s) { ", not, source(e))
		for j := range i {
			fmt.Fprintf(&b, "_pl%d++; ", side(j, true))
		}
		fmt.Fprintf(&b, "_pl%d++ }", side(i, false))
	}
	b.WriteString("; ")
	return b.String()
}

// flushLoops records the loops of the current function from index from
// outwards-in before a statement that leaves them.
func (fi *fileInstr) flushLoops(at token.Pos, from int) {
	loops := append([]*loopInfo(nil), fi.top().loops[from:]...)
	if len(loops) == 0 {
		return
	}
	fi.edits = append(fi.edits, edit{off: fi.offset(at), end: -1, gen: func() string { return flushAll(loops) }})
}

// flushAll records the entries of loops, innermost first, and flushes
// their counters: what leaving all of them at once does.
func flushAll(loops []*loopInfo) string {
	var b strings.Builder
	for i := len(loops) - 1; i >= 0; i-- {
		b.WriteString(loops[i].flush())
	}
	return b.String()
}

func (fi *fileInstr) enterIf(n *ast.IfStmt, parent ast.Node) {
	then := -1
	if t := fi.find(n, ThenArm); t != nil {
		r := fi.newRegion(t)
		then = r.Index
		if !fi.rangeArm(n, parent, r.Index) {
			fi.open(n.Body.Lbrace+1, span(n.Body), fi.counter(r.Index)+"; ")
		}
	}
	t := fi.find(n, ElseArm)
	if t == nil {
		return
	}
	r := fi.newRegion(t)
	// An if without else that every iteration of an innermost loop reaches
	// needs no else counter: else = iterations - then. Adding an else
	// branch there would cost the loop a branch per iteration.
	if l := fi.leafLoop(); n.Else == nil && then >= 0 && l != nil && parent == loopBody(l.reg.Node) && !leavesEarly(loopBody(l.reg.Node), "") && !continues(loopBody(l.reg.Node)) {
		r.derivedFrom, r.derivedMinus, r.noProbe = l.reg.Index, then, true
		return
	}
	inc := fi.counter(r.Index)
	switch e := n.Else.(type) {
	case nil:
		fi.closeAt(n.Body.End(), span(n.Body), " else { "+inc+" }")
	case *ast.BlockStmt:
		fi.open(e.Lbrace+1, span(e), inc+"; ")
	default:
		fi.open(e.Pos(), span(e), "{ "+inc+"; ")
		fi.closeAt(e.End(), span(e), " }")
	}
}

// rangeArm counts the then arm k of n at the exit of the innermost loop
// around it, in the counting binary, when n tests the loop's induction
// variable against a value the loop does not change (`if j > 0` in `for
// j := 0; j < n; j++`): of the entry's iterations, the induction values
// that pass follow from its first one and the trip count. A counter per
// arm per iteration cost cg's Laplacian 9 % (a test copy). The loop must
// have a trip count known at entry (tripExpr), reach n at every
// iteration (no continue, no early exit) and make no call, and the value
// compared with must not change in it (invariant).
func (fi *fileInstr) rangeArm(n *ast.IfStmt, parent ast.Node, k int) bool {
	l := fi.leafLoop()
	if fi.timing || l == nil || l.reg.counted || n.Init != nil || parent != loopBody(l.reg.Node) {
		return false
	}
	f, ok := l.reg.Node.(*ast.ForStmt)
	if !ok || leavesEarly(f.Body, "") || continues(f.Body) {
		return false
	}
	info := fi.pkg.TypesInfo
	obj, start, ok := inductionVar(info, f)
	if !ok {
		return false
	}
	cond, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	op, c := cond.Op, cond.Y
	if !isIdent(info, cond.X, obj) {
		if !isIdent(info, cond.Y, obj) {
			return false
		}
		c, op = cond.X, mirrored[op]
	}
	if t, ok := info.TypeOf(c).Underlying().(*types.Basic); !ok || t.Info()&types.IsInteger == 0 {
		return false
	}
	if !fi.callFree(f.Body) || !fi.invariant(c, f) {
		return false
	}
	j := l.reg.Index
	below := func(plus string) string {
		return fmt.Sprintf("%s.Below(_pj%d, _pn%d, int64(%s)%s)", probeName, j, j, fi.source(c), plus)
	}
	var count string
	switch op {
	case token.LSS:
		count = below("")
	case token.LEQ:
		count = below(" + 1")
	case token.GTR:
		count = fmt.Sprintf("_pn%d - %s", j, below(" + 1"))
	case token.GEQ:
		count = fmt.Sprintf("_pn%d - %s", j, below(""))
	case token.EQL:
		count = fmt.Sprintf("%s - %s", below(" + 1"), below(""))
	case token.NEQ:
		count = fmt.Sprintf("_pn%d - (%s - %s)", j, below(" + 1"), below(""))
	default:
		return false
	}
	l.start = fi.source(start)
	l.count = append(l.count, k)
	l.derive = append(l.derive, fmt.Sprintf("_pl%d += %s; ", k, count))
	return true
}

// mirrored is the comparison c op j for j op c (0: not a comparison).
var mirrored = map[token.Token]token.Token{token.LSS: token.GTR, token.LEQ: token.GEQ, token.GTR: token.LSS, token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ}

// invariant reports whether c, evaluated after loop f, has the value it
// had at every iteration of f, which makes no call: c is made of
// constants, conversions, len, cap, arithmetic and local variables
// declared before f that f does not assign and whose address the file
// never takes (so no pointer write in f reaches them).
func (fi *fileInstr) invariant(c ast.Expr, f ast.Node) bool {
	info := fi.pkg.TypesInfo
	written := assigned(info, f)
	ok := true
	ast.Inspect(c, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			v, isVar := info.Uses[n].(*types.Var)
			if !isVar {
				break // a constant, a type, a builtin
			}
			local := v.Parent() != nil && v.Parent() != v.Pkg().Scope()
			inside := v.Pos() >= f.Pos() && v.Pos() < f.End()
			ok = local && !inside && !written[v] && !fi.addressTaken(v)
		case nil, *ast.BasicLit, *ast.BinaryExpr, *ast.ParenExpr:
		case *ast.UnaryExpr:
			ok = n.Op == token.SUB || n.Op == token.ADD || n.Op == token.XOR
		case *ast.CallExpr:
			ok = fi.valueCall(n)
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// addressTaken reports whether the file takes v's address; the file is
// scanned once, at the first question.
func (fi *fileInstr) addressTaken(v *types.Var) bool {
	if fi.addressed == nil {
		fi.addressed = map[types.Object]bool{}
		ast.Inspect(fi.file, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && fi.pkg.TypesInfo.Uses[id] != nil {
					fi.addressed[fi.pkg.TypesInfo.Uses[id]] = true
				}
			}
			return true
		})
	}
	return fi.addressed[v]
}

// callsUser reports whether a body calls a function of the program.
func (fi *fileInstr) callsUser(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if f, ok := typeutil.Callee(fi.pkg.TypesInfo, c).(*types.Func); ok && fi.isOwn(f) {
				found = true
			}
		}
		return !found
	})
	return found
}

// callFree reports whether a loop body makes no call: nothing but
// builtins without a runtime call, conversions and the math functions the
// compiler turns into instructions. A probe inside such a loop (a timer
// of an inner loop, a per-iteration tick) is the only call in it, and
// calls make the register allocator spill the loop's variables: the code
// being timed would not be the program's.
func (fi *fileInstr) callFree(body ast.Node) bool {
	return fi.callsOnly(body, fi.inlineCall)
}

// callsOnly reports whether body makes no call but those allowed says
// compile to nothing a probe would disturb, and nothing else that leaves
// the straight code (closures, go, defer, channel operations).
func (fi *fileInstr) callsOnly(body ast.Node, allowed func(*ast.CallExpr) bool) bool {
	free := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt, *ast.SendStmt:
			free = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				free = false
			}
		case *ast.CallExpr:
			if !allowed(n) {
				free = false
			}
		}
		return free
	})
	return free
}

// inlineCall reports whether a call expression compiles to no call.
func (fi *fileInstr) inlineCall(c *ast.CallExpr) bool {
	if tv, ok := fi.pkg.TypesInfo.Types[c.Fun]; ok && tv.IsType() {
		return true // a conversion
	}
	switch f := typeutil.Callee(fi.pkg.TypesInfo, c).(type) {
	case *types.Builtin:
		switch f.Name() {
		case "len", "cap", "min", "max", "real", "imag", "complex":
			return true
		}
	case *types.Func:
		if f.Pkg() != nil && f.Pkg().Path() == "math" {
			switch f.Name() {
			case "Sqrt", "Abs", "Copysign", "Float64bits", "Float64frombits", "Float32bits", "Float32frombits":
				return true
			}
		}
	}
	return false
}

// leafLoop returns the innermost enclosing loop of the current function
// when it contains no loop itself, else nil.
func (fi *fileInstr) leafLoop() *loopInfo {
	loops := fi.top().loops
	if len(loops) == 0 {
		return nil
	}
	l := loops[len(loops)-1]
	if hasLoop(loopBody(l.reg.Node)) {
		return nil
	}
	return l
}

func loopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// hasLoop reports whether a body contains a loop (outside closures).
func hasLoop(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// continues reports whether a loop body has a continue (outside closures
// and nested loops, which leafLoop excludes anyway).
func continues(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.CONTINUE {
			found = true
		}
		return !found
	})
	return found
}

// enterCopyStmt times and counts a copy statement like a loop whose
// iterations are the elements copied (copy's result). One in the body of
// a loop that calls nothing but builtins (a packing loop) gets no probe:
// its time stays in the loop's, as before.
func (fi *fileInstr) enterCopyStmt(s ast.Stmt, t *Target) func() {
	if l := fi.leafLoop(); l != nil && fi.callsOnly(loopBody(l.reg.Node), fi.builtinCall) {
		return nil
	}
	r := fi.newRegion(t)
	k := r.Index
	fi.open(s.Pos(), span(s), fmt.Sprintf("{ _pc%d := %s.LoopStart(%d); %s.Loop(%d, int64(", k, probeName, k, probeName, k))
	fi.closeAt(s.End(), span(s), fmt.Sprintf("), _pc%d) }", k))
	fi.regs = append(fi.regs, k)
	return func() { fi.regs = fi.regs[:len(fi.regs)-1] }
}

// builtinCall reports whether c is a conversion or a call of a builtin
// (copy included).
func (fi *fileInstr) builtinCall(c *ast.CallExpr) bool {
	if tv, ok := fi.pkg.TypesInfo.Types[c.Fun]; ok && tv.IsType() {
		return true
	}
	_, ok := typeutil.Callee(fi.pkg.TypesInfo, c).(*types.Builtin)
	return ok
}

// enterCallStmt places the timer of a call target.
func (fi *fileInstr) enterCallStmt(s ast.Stmt, parent ast.Node) func() {
	if t := fi.find(s, Copy); t != nil {
		return fi.enterCopyStmt(s, t)
	}
	t := fi.find(s, Call)
	if t == nil {
		return nil
	}
	call, callee := singleCall(fi.pkg.TypesInfo, s)
	if call == nil {
		return nil
	}
	units := fi.argUnits(call, callee)
	// A library call in the body of an innermost loop is never worth a
	// timer, and a probe around it would slow the loop: it gets none, and
	// its count is the loop's iterations (it runs once per iteration when
	// the body cannot skip it). Unless the loop also calls MPI, which
	// costs far more than a probe, and the call is given lengths it may
	// take time by (a sort of a rank's share each step).
	if l := fi.leafLoop(); l != nil && callee != nil && !fi.isOwn(callee) && parent == loopBody(l.reg.Node) &&
		!leavesEarly(loopBody(l.reg.Node), "") && !continues(loopBody(l.reg.Node)) &&
		(units == "" || !fi.callsMPI(loopBody(l.reg.Node))) {
		r := fi.newRegion(t)
		r.callExpr, r.callee, r.lib = call, callee, true
		r.derivedFrom, r.derivedMinus, r.noProbe = l.reg.Index, -1, true
		return nil
	}
	declares := false
	switch s := s.(type) {
	case *ast.AssignStmt:
		declares = s.Tok == token.DEFINE
	case *ast.DeclStmt:
		declares = true
	}
	// A declaration cannot be wrapped in a block, and a new variable
	// before it could break a goto that jumps over it.
	if declares && fi.top().hasGoto {
		return nil
	}
	r := fi.newCallRegion(t, call, callee)
	k := r.Index
	stop := fi.siteStop(k)
	start := fmt.Sprintf("_pc%d := %s.Start(%d); ", k, probeName, k)
	if units != "" { // a library call: argUnits has none for the program's own
		// The lengths before the call, which may reassign what it sorts.
		r.units = true
		start = fmt.Sprintf("_pn%d := int64(%s); %s", k, units, start)
		stop = fmt.Sprintf("%s.Loop(%d, _pn%d, _pc%d)", probeName, k, k, k)
	}
	if declares {
		fi.open(s.Pos(), span(s), start)
		fi.closeAt(s.End(), span(s), "; "+stop)
	} else {
		fi.open(s.Pos(), span(s), "{ "+start)
		fi.closeAt(s.End(), span(s), "; "+stop+" }")
	}
	fi.regs = append(fi.regs, k)
	return func() { fi.regs = fi.regs[:len(fi.regs)-1] }
}

// newCallRegion makes the region of call target t, a call of callee (nil:
// dynamic, its target resolved where the syntax tells).
func (fi *fileInstr) newCallRegion(t *Target, call *ast.CallExpr, callee *types.Func) *region {
	r := fi.newRegion(t)
	r.callExpr, r.callee = call, callee
	r.lib = callee != nil && !fi.isOwn(callee)
	if callee == nil {
		r.target = fi.dynamicTarget(call)
		if r.target == nil {
			r.dynSig, _ = fi.pkg.TypesInfo.TypeOf(call.Fun).Underlying().(*types.Signature)
		}
	}
	return r
}

// siteStop is the statement that ends an execution of call site k begun
// as _pcK := Start(k). Untimed sites in loops of the counting binary count
// locally, without an atomic.
func (fi *fileInstr) siteStop(k int) string {
	stop := fmt.Sprintf("%s.Stop(%d, _pc%d)", probeName, k, k)
	if loops := fi.top().loops; len(loops) > 0 && !fi.timing {
		stop = fmt.Sprintf("if _pc%d != 0 { %s } else { %s }", k, stop, fi.counter(k))
	}
	return stop
}

// enterReturnCall places the timer of a call target that is a return
// statement, return f(x) with f of several results: it becomes
// { t := P.Start(K); r0, r1 := f(x); P.Stop(K, t); return r0, r1 }, the
// loops it leaves flushed after the call, which runs inside them.
func (fi *fileInstr) enterReturnCall(s *ast.ReturnStmt) (func(), bool) {
	t := fi.find(s, Call)
	if t == nil {
		return nil, false
	}
	call, callee := singleCall(fi.pkg.TypesInfo, s)
	n := returnResults(fi.pkg.TypesInfo, s)
	if call == nil || n == 0 {
		return nil, false
	}
	k := fi.newCallRegion(t, call, callee).Index
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("_pr%d_%d", k, i)
	}
	results := strings.Join(names, ", ")
	stop := fi.siteStop(k)
	loops := append([]*loopInfo(nil), fi.top().loops...)
	ret := s.Pos() + token.Pos(len("return"))
	fi.edits = append(fi.edits, edit{off: fi.offset(s.Pos()), end: fi.offset(ret), span: span(s),
		text: fmt.Sprintf("{ _pc%d := %s.Start(%d); %s :=", k, probeName, k, results)})
	fi.edits = append(fi.edits, edit{off: fi.offset(s.End()), end: -1, close: true, span: span(s), gen: func() string {
		return fmt.Sprintf("; %s; %sreturn %s }", stop, flushAll(loops), results)
	}})
	fi.regs = append(fi.regs, k)
	return func() { fi.regs = fi.regs[:len(fi.regs)-1] }, true
}

// returnParent makes the region around the function's loops the parent
// of what a return statement inside them times (its calls, f(g(x)) or
// return g(x)), and has it count outside the loops: the loops are flushed
// before the statement, so their timers have stopped and their local
// counters are spent when its expressions run. It returns what restores
// the open regions and loops.
func (fi *fileInstr) returnParent() func() {
	fr := fi.top()
	loops := fr.loops
	if len(loops) == 0 {
		return nil
	}
	regs := fi.regs
	for i, k := range regs {
		if k == loops[0].reg.Index {
			fi.regs = append([]int(nil), regs[:i]...)
			break
		}
	}
	fr.loops = nil
	return func() { fi.regs, fr.loops = regs, loops }
}

// enterInlineCall places the timer of a call target inside an
// expression (timedInPlace): the call becomes Timed(k, Start(k), call).
func (fi *fileInstr) enterInlineCall(call *ast.CallExpr) func() {
	t := fi.find(call, Call)
	if t == nil {
		return nil
	}
	callee, _ := typeutil.Callee(fi.pkg.TypesInfo, call).(*types.Func)
	if callee != nil && isInterfaceMethod(callee) {
		callee = nil
	}
	r := fi.newCallRegion(t, call, callee)
	r.inline = true
	_, r.mpiArgs = argCalls(fi.pkg.TypesInfo, call)
	k := r.Index
	open := fmt.Sprintf("%s.Timed(%d, %s.Start(%d), ", probeName, k, probeName, k)
	if loops := fi.top().loops; len(loops) > 0 && !fi.timing {
		// Untimed sites in loops count locally, as statements do.
		l := loops[len(loops)-1]
		l.count = append(l.count, k)
		open = fmt.Sprintf("%s.TimedIn(%d, %s.Start(%d), &_pl%d, ", probeName, k, probeName, k, k)
	}
	fi.open(call.Pos(), span(call), open)
	fi.closeAt(call.End(), span(call), ")")
	fi.regs = append(fi.regs, k)
	return func() { fi.regs = fi.regs[:len(fi.regs)-1] }
}

func (fi *fileInstr) isOwn(f *types.Func) bool { return fi.prog.owns(f) }

// enterCall records user calls, marks rank bodies and redirects mpi.Main
// and os.Exit to the probe, which flushes before the process ends.
func (fi *fileInstr) enterCall(call *ast.CallExpr) {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		fi.callPos[f] = true
	case *ast.SelectorExpr:
		fi.callPos[f.Sel] = true
	}
	obj, _ := typeutil.Callee(fi.pkg.TypesInfo, call).(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return
	}
	if isInterfaceMethod(obj) {
		// A call of a method of the program's interface that one type of
		// the program implements is a call of that type's method.
		if target, ok := fi.dynamicTarget(call).(*types.Func); ok {
			fi.recordSite(target, call)
			return
		}
		if !slices.Contains(fi.in.dynamic[obj.Name()], obj) {
			fi.in.dynamic[obj.Name()] = append(fi.in.dynamic[obj.Name()], obj)
		}
		return
	}
	if fi.isOwn(obj) {
		fi.recordSite(obj, call)
		return
	}
	full := obj.Pkg().Path() + "." + obj.Name()
	switch full {
	case mpiPath + ".Main", mpiPath + ".Run", mpiPath + ".Launch":
		for _, a := range call.Args {
			if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
				fi.rankLits[lit] = true
			}
		}
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	var to string
	switch full {
	case mpiPath + ".Main":
		to = probeName + ".Main"
	case "os.Exit":
		to = probeName + ".Exit"
	default:
		return
	}
	fi.edits = append(fi.edits, edit{off: fi.offset(sel.Pos()), end: fi.offset(sel.End()), text: to})
	fi.extra = append(fi.extra, fmt.Sprintf("var _ = %s.%s", x.Name, sel.Sel.Name))
}

// recordSite records call as a call of user function f: at the call
// region open around it, or at none (-1).
func (fi *fileInstr) recordSite(f *types.Func, call *ast.CallExpr) {
	u := fi.in.use(f)
	site := -1
	if len(fi.regs) > 0 {
		if r := fi.in.Regions[fi.regs[len(fi.regs)-1]]; r.Kind == Call && r.callExpr == call {
			site = r.Index
		}
	}
	u.sites = append(u.sites, site)
}

func (in *Instrumented) use(f *types.Func) *funcUse {
	u := in.uses[f]
	if u == nil {
		u = &funcUse{}
		in.uses[f] = u
	}
	return u
}

// recordValueUses marks user functions this file uses other than by
// calling them directly (method values, function values).
func (fi *fileInstr) recordValueUses() {
	for id, obj := range fi.pkg.TypesInfo.Uses {
		f, ok := obj.(*types.Func)
		if !ok || fi.callPos[id] || !fi.isOwn(f) {
			continue
		}
		if fi.prog.Fset.File(id.Pos()) != fi.prog.Fset.File(fi.file.Pos()) {
			continue
		}
		fi.in.use(f).byValue = true
	}
}

// apply returns the source with the edits made and the extra declarations
// appended.
func (fi *fileInstr) apply() []byte {
	sort.SliceStable(fi.edits, func(i, j int) bool {
		a, b := fi.edits[i], fi.edits[j]
		if a.off != b.off {
			return a.off < b.off
		}
		if a.close != b.close {
			return a.close
		}
		if a.close {
			return a.span < b.span
		}
		return a.span > b.span
	})
	var b strings.Builder
	last := 0
	for _, e := range fi.edits {
		b.Write(fi.src[last:e.off])
		b.WriteString(e.text)
		if e.gen != nil {
			b.WriteString(e.gen())
		}
		last = e.off
		if e.end >= 0 {
			last = e.end
		}
	}
	b.Write(fi.src[last:])
	for _, x := range fi.extra {
		b.WriteString("\n" + x + "\n")
	}
	return []byte(b.String())
}

// hasGoto reports whether a function body contains a goto.
func hasGoto(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			found = true
		}
		return !found
	})
	return found
}

// breaksOut reports whether a loop body has a break that leaves the loop:
// an unlabelled one outside nested loops, switches and selects, or one
// naming the loop's label.
func breaksOut(body *ast.BlockStmt, lbl string) bool {
	found := false
	var visit func(n ast.Node, nested bool)
	visit = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(x ast.Node) bool {
			if found {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if x != n {
					visit(x, true)
					return false
				}
			case *ast.BranchStmt:
				if x.Tok == token.BREAK && ((x.Label == nil && !nested) || (x.Label != nil && x.Label.Name == lbl)) {
					found = true
				}
			}
			return true
		})
	}
	visit(body, false)
	return found
}
