package prediction

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/profiler"
	"golang.org/x/tools/go/ssa"
)

type edge [2]*ssa.BasicBlock

// Oracle answers the interpreter's questions from a model, its reduction
// plan and a profile. Times are in seconds, of one rank computing alone on
// a node; onNode gives a view whose compute times are those of a rank
// sharing its node.
type Oracle struct {
	mp     *model.Program
	lp     *loopnest.Program
	prof   *profiler.Profile
	user   map[*ssa.Function]*model.Func
	block  map[*ssa.BasicBlock]float64
	branch map[*ssa.BasicBlock]float64
	// ranBranch is how often an If went to its first successor in the
	// profiled run itself, where that is known: branch's frequency of an
	// arm that run never took comes from a run with more ranks
	// (profiler's fillUnreached), which trustGuard must not read.
	ranBranch map[*ssa.BasicBlock]float64
	// rotatedGuard are the tests go/ssa puts before rotated loops
	// (guardBranches): the model's if region around such a loop takes
	// the ID of the first if in the loop's body, whose frequency is not
	// the guard's.
	rotatedGuard map[*ssa.BasicBlock]bool
	reduce       map[edge]*interpreter.Reduction
	// uncounted are the notes of a reduced nest's loops without a trip
	// count, given when the simulated arguments are not the profile's.
	uncounted map[*interpreter.Reduction][]string
	// notes are added while simulations of a sweep run at once.
	notesMu sync.Mutex
	notes   map[string]bool
	// kernelRate is the time per innermost iteration of a kernel whose
	// time the profile has only at its call sites (kernelRates); carried
	// are those call sites, whose time the kernel's loops then charge.
	kernelRate map[*ssa.Function]float64
	zones      *zones
	carried    map[string]bool
	// sources are, per reduced nest, the regions whose own time its time
	// is (for its node contention): the nest's root, or a kernel's sites.
	sources    map[string][]string
	contention *nodeContention // of the machine last asked for
	// blockLabel is the region whose own time is most of a block's cost.
	blockLabel map[*ssa.BasicBlock]string
	blockTop   map[*ssa.BasicBlock]float64
	// sharedExit holds the exit tests of loops that have more than one,
	// with the loop's region ID: the profile counts a loop's exits, not
	// which test took them, so each such test gets the loop's exit rate.
	sharedExit map[*ssa.BasicBlock]string
	// loopExit are the exit tests of the profiled loops, with their loop
	// and its iterations per entry in the profile's run: where a test
	// depends on data, that count is what the simulation repeats.
	loopExit map[*ssa.BasicBlock]loopExit
	// groupedExits are the exit tests with outcome counts of their own
	// (not the loop's shared rate) in loops with more than one (LoopExit).
	groupedExits map[*ssa.BasicBlock]bool
	// instanceOf is, by the model's name of a generic function's
	// instance ("kern.Sum[float64]"), the generic's ("kern.Sum"): the
	// profiler instruments the generic's code once, and its regions carry
	// the generic's IDs (profID).
	instanceOf map[string]string
	// otherArgs is set when the simulated arguments are not the
	// profile's (SetArgs).
	otherArgs bool
	// calib scales every compute time: the program built without probes
	// against the instrumented one (plainScale).
	calib float64
	// maxSteps bounds the SSA instructions of each rank of a simulation
	// (SpeedupOptions.MaxSteps).
	maxSteps int64
	// logf reports progress (the CLI's stderr); slowSaid is set once a
	// simulation said it runs long (slowSimulation).
	logf     func(string, ...any)
	slowSaid atomic.Bool
	mpiSites map[mpiSiteKey]*profiler.MPISite // prof.MPI by site and operation
	// counted are the call statements whose callees' loops the reduced
	// nests count (countedByCallers), made on first use.
	counted map[string]bool
}

// NewOracle derives block costs, branch frequencies and reduced nests from
// the profile. Regions of the model that the profile lacks cost nothing
// and are listed by Notes.
func NewOracle(mp *model.Program, lp *loopnest.Program, prof *profiler.Profile) (*Oracle, error) {
	o := &Oracle{mp: mp, lp: lp, prof: prof, zones: newZones(prof, mp), user: map[*ssa.Function]*model.Func{},
		block: map[*ssa.BasicBlock]float64{}, branch: map[*ssa.BasicBlock]float64{}, ranBranch: map[*ssa.BasicBlock]float64{}, rotatedGuard: map[*ssa.BasicBlock]bool{},
		reduce: map[edge]*interpreter.Reduction{}, uncounted: map[*interpreter.Reduction][]string{}, notes: map[string]bool{},
		kernelRate: map[*ssa.Function]float64{}, carried: map[string]bool{}, sources: map[string][]string{},
		blockLabel: map[*ssa.BasicBlock]string{}, blockTop: map[*ssa.BasicBlock]float64{},
		sharedExit: map[*ssa.BasicBlock]string{}, loopExit: map[*ssa.BasicBlock]loopExit{},
		groupedExits: map[*ssa.BasicBlock]bool{}}
	// Asked at every Bcast a rank makes (SiteData): looked up, not
	// searched.
	o.mpiSites = make(map[mpiSiteKey]*profiler.MPISite, len(prof.MPI))
	for i := range prof.MPI {
		s := &prof.MPI[i]
		if k := (mpiSiteKey{s.Site, s.Op}); o.mpiSites[k] == nil {
			o.mpiSites[k] = s
		}
	}
	regions := map[string]*model.Region{}
	for _, f := range mp.Funcs {
		o.user[f.SSA] = f
		for _, root := range f.Roots() {
			root.Walk(func(r *model.Region) { regions[r.ID()] = r })
		}
	}
	o.instanceOf = map[string]string{}
	for _, f := range mp.Funcs {
		if g := o.user[f.SSA.Origin()]; g != nil && f.SSA.Origin() != nil {
			o.instanceOf[f.Name] = g.Name
		}
	}
	o.zones.profID = o.profID
	byProf := map[string][]*model.Region{}
	for _, id := range slices.Sorted(maps.Keys(regions)) {
		pid := o.profID(id)
		byProf[pid] = append(byProf[pid], regions[id])
	}
	for i := range prof.Regions {
		pr := &prof.Regions[i]
		t, ok := ownPerEntry(pr)
		if !ok {
			continue
		}
		for _, b := range entryBlocks(byProf, pr) {
			o.addBlockCost(b, t, pr.ID)
		}
	}
	o.calibrateToPlain()
	o.branches(regions)
	o.kernelRates(lp)
	o.addProfiledExits(lp)
	o.addGiveUps(lp)
	o.addUntakenArms(lp)
	for _, root := range lp.Nests() {
		if o.sources[root.ID] == nil {
			// The nest's time is the own time of its loops and of the
			// timed regions in them, the functions they call included,
			// each slowing down on a shared node as its own contention
			// runs say: the root's alone may be a few microseconds of
			// loop overhead around an inner loop or a call that holds
			// the time (mandelbrot's row loop around mandelRow).
			var ids []string
			root.WalkAll(func(l *loopnest.Loop) { ids = append(ids, l.ID) })
			parts, _ := o.zones.exclusiveParts(root.ID, nil)
			for _, p := range parts {
				if !slices.Contains(ids, p.id) {
					ids = append(ids, p.id)
				}
			}
			o.sources[root.ID] = ids
		}
		if o.callsCarriedKernel(root) {
			// Executed: each call then enters the kernel, whose loops
			// charge its rate per iteration of the data it is given.
			continue
		}
		if err := o.addReduction(root); err != nil {
			o.note(root.Func.Prog.Fset, root.Pos, "nest %s is executed, not reduced: %v", root.ID, err)
		}
		if _, kernel := o.kernelRate[root.Func]; !kernel {
			o.noteUntimed(root)
		}
	}
	return o, nil
}

// profID is the profile's ID of model region id: a generic instance's
// regions are profiled under the generic function's name.
func (o *Oracle) profID(id string) string {
	name, rest, ok := strings.Cut(id, ":")
	if !ok {
		return id
	}
	if g, ok := o.instanceOf[name]; ok {
		return g + ":" + rest
	}
	return id
}

// profName is the name the profile gives f's regions (Region.Func): a
// generic instance's are the generic's.
func (o *Oracle) profName(f *model.Func) string {
	if g, ok := o.instanceOf[f.Name]; ok {
		return g
	}
	return f.Name
}

// region is the profile's region of model region id.
func (o *Oracle) region(id string) (*profiler.Region, bool) { return o.prof.Region(o.profID(id)) }

// noteUntimed notes a reduced nest that ran in the profile without a timer
// or a kernel rate (kernelRates, from timed call statements), unless the
// reduced nests its calls were made in count its loops (callee copies,
// loopnest's Loop.Callees): its time is then in its callers' own time,
// charged per call whatever its trip counts are here. The profiler leaves
// a function untimed when its calls are too short for a timer within the
// overhead budget (planTimers), or when a call of it cannot be timed or
// resolved: through a function value it was passed as, through an
// interface that several types implement, or in a go or defer statement;
// kernelRates still charges it at its call sites where the profile's
// counts tell what they ran (dynamicSites).
func (o *Oracle) noteUntimed(root *loopnest.Loop) {
	pr, ok := o.region(root.ID)
	if !ok || pr.Execs == 0 || pr.Timed || o.countedByCallers(root.Func) {
		return
	}
	o.note(root.Func.Prog.Fset, root.Pos, "nest %s ran in the profile but was not timed: its calls were too short for a timer within the profiler's overhead budget, or made through a function value, an interface, or a go or defer statement. Its time is in its callers' own time, charged per call whatever its trip counts are here; a call made directly in a reduced loop, with arguments whose lengths the loop's entry tells, is counted by the callee's trip counts instead", root.ID)
}

// countedByCallers reports whether every call statement of fn that ran in
// the profile is in a reduced nest that counts fn's loops there (a callee
// copy): the nest charges the time of its calls per iteration of fn's
// loops.
func (o *Oracle) countedByCallers(fn *ssa.Function) bool {
	if o.counted == nil {
		// The call statements whose callee copies the nests count, all
		// of them at once: asked for every untimed nest.
		o.counted = map[string]bool{}
		for _, n := range o.lp.Nests() {
			n.WalkAll(func(l *loopnest.Loop) {
				if l.Inlined != nil {
					if r, ok := o.callRegion(l.Inlined.Call); ok {
						o.counted[r.ID] = true
					}
				}
			})
		}
	}
	name := fn.String()
	if fn.Origin() != nil {
		name = fn.Origin().String()
	}
	ran := false
	for _, id := range o.zones.sites[name] {
		if r, ok := o.prof.Region(id); !ok || r.Execs == 0 {
			continue
		}
		if !o.counted[id] {
			return false
		}
		ran = true
	}
	return ran
}

// addBlockCost charges t per execution of b to region id.
func (o *Oracle) addBlockCost(b *ssa.BasicBlock, t float64, id string) {
	o.block[b] += t
	if t > o.blockTop[b] {
		o.blockTop[b], o.blockLabel[b] = t, id
	}
}

// BlockRegion implements interpreter.RegionNamer: the region whose own
// time is most of b's cost.
func (o *Oracle) BlockRegion(b *ssa.BasicBlock) string { return o.blockLabel[b] }

// CallRegion implements interpreter.RegionNamer: the call statement's
// region, whose own time CallCost charges.
func (o *Oracle) CallRegion(call ssa.CallInstruction) string {
	if f := o.user[call.Parent()]; f != nil {
		b := call.Block()
		for i, in := range b.Instrs {
			if in == call {
				if l := f.LeafAt(b, i); l != nil {
					return l.ID()
				}
			}
		}
	}
	return ""
}

// note adds a note on what is at pos.
func (o *Oracle) note(fset *token.FileSet, pos token.Pos, format string, args ...any) {
	o.addNote(fmt.Sprintf("%s: %s", fset.Position(pos), fmt.Sprintf(format, args...)))
}

// addNote adds a note, once however often it is added; the simulations
// of a sweep add them at once.
func (o *Oracle) addNote(text string) {
	o.notesMu.Lock()
	defer o.notesMu.Unlock()
	o.notes[text] = true
}

// SetArgs tells the oracle the program arguments of the simulations, so
// that it notes the assumptions that only hold with the profile's own.
func (o *Oracle) SetArgs(args []string) { o.otherArgs = !slices.Equal(args, o.prof.Meta.Args) }

// Notes lists, sorted, what the oracle could not map from the profile.
func (o *Oracle) Notes() []string {
	o.notesMu.Lock()
	defer o.notesMu.Unlock()
	out := make([]string, 0, len(o.notes))
	for n := range o.notes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ownPerEntry is a timed region's own time per execution of the block
// it is charged at: a loop's header runs once per iteration and once more
// per entry (the exit test), a function body's entry and a branch arm's
// first block once per execution.
func ownPerEntry(pr *profiler.Region) (float64, bool) {
	n := pr.Execs
	switch pr.Kind {
	case profiler.Loop:
		n += pr.Iters
	case profiler.FuncBody, profiler.ThenArm, profiler.ElseArm:
	default:
		return 0, false
	}
	if !pr.Timed || pr.OwnNs <= 0 || n <= 0 {
		return 0, false
	}
	return pr.OwnNs * 1e-9 / float64(n), true
}

// entryBlocks are the blocks profile region pr's own time is charged at,
// in every model function that runs its code (byProf: the model's regions
// by their profile ID, a generic function's and its instances' under the
// generic's): a loop's header, a body's entry, an arm's first block.
// Without the instances a generic kernel in a package of the program
// (kern.Sum(xs)) cost nothing.
func entryBlocks(byProf map[string][]*model.Region, pr *profiler.Region) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	if pr.Kind == profiler.Loop || pr.Kind == profiler.FuncBody {
		for _, r := range byProf[pr.ID] {
			out = append(out, r.Entry)
		}
		return out
	}
	id, succ := pr.ID, 0
	switch {
	case strings.HasSuffix(id, "/then"):
		id = strings.TrimSuffix(id, "/then")
	case strings.HasSuffix(id, "/else"):
		id, succ = strings.TrimSuffix(id, "/else"), 1
	default:
		return nil
	}
	for _, r := range byProf[id] {
		if len(r.Entry.Succs) == 2 {
			out = append(out, r.Entry.Succs[succ])
		}
	}
	return out
}

// branches derives the probability of each If's first successor: loop
// exit tests from their own outcome counts where the profile has them
// (loops that can leave by more than one test), else from the loop's
// entries and iterations; if statements
// from their then arm's share, which wins over a loop's rate for an if
// that leaves the loop. Regions go in ID order, loops first, so that the
// result does not depend on map order.
func (o *Oracle) branches(regions map[string]*model.Region) {
	ids := slices.Sorted(maps.Keys(regions))
	for _, id := range ids {
		if r := regions[id]; r.Kind.IsLoop() {
			o.loopBranches(id, r)
		}
	}
	for _, id := range ids {
		r := regions[id]
		if (r.Kind == model.IfThen || r.Kind == model.IfThenElse) && len(r.Entry.Succs) == 2 && !o.rotatedGuard[r.Entry] {
			if then, ok := o.region(id + "/then"); ok && then.Prob != nil {
				o.branch[r.Entry] = *then.Prob
			}
			o.setRanBranch(r.Entry, id+"/then", id+"/else")
		}
	}
	for _, f := range o.mp.Funcs {
		if ifs := ifBlocks(f); len(ifs) > 0 && f.Syntax != nil {
			o.plainIfs(f, ifs)
			o.testBranches(f, ifs)
			o.switchBranches(f, ifs)
		}
	}
}

// ifBlocks are the blocks of f that end in an If.
func ifBlocks(f *model.Func) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for _, b := range f.SSA.Blocks {
		if n := len(b.Instrs); n > 0 {
			if _, ok := b.Instrs[n-1].(*ssa.If); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// ifCond is the condition of the If ending b (one of ifBlocks).
func ifCond(b *ssa.BasicBlock) ssa.Value { return b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond }

// switchBranches sets the probability of each If of f that compares a
// tagged switch's value with a case value, from the profile's counts of
// the switch's clauses (profiler.ClauseID): the clauses are tried in
// source order, the default last, so clause i matched n_i of the R_i
// executions that reached it (all of them less the earlier clauses'
// matches); a clause of k values matches on each of its k tests alike,
// 1 - (1 - n_i/R_i)^(1/k).
func (o *Oracle) switchBranches(f *model.Func, blocks []*ssa.BasicBlock) {
	switches := profiler.TaggedSwitches(f.Syntax)
	if len(switches) == 0 {
		return
	}
	ifs := map[token.Pos]*ssa.BasicBlock{}
	for _, b := range blocks {
		if p := ifCond(b).Pos(); p.IsValid() {
			ifs[p] = b
		}
	}
	for _, sw := range switches {
		site := f.SiteID("switch", sw.Pos())
		counts := make([]int64, len(sw.Body.List))
		var reached int64
		for i := range sw.Body.List {
			r, ok := o.region(profiler.ClauseID(site, i))
			if !ok {
				reached = -1
				break
			}
			counts[i] = r.Execs
			reached += r.Execs
		}
		if r, ok := o.region(profiler.NoMatchID(site)); ok && reached >= 0 {
			reached += r.Execs
		}
		if reached <= 0 {
			continue
		}
		for i, st := range sw.Body.List {
			c := st.(*ast.CaseClause)
			if c.List == nil || reached <= 0 {
				continue
			}
			p := min(float64(counts[i])/float64(reached), 1)
			q := 1 - math.Pow(1-p, 1/float64(len(c.List)))
			for _, e := range c.List {
				if b := ifs[e.Pos()]; b != nil {
					o.branch[b] = q
				}
			}
			reached -= counts[i]
		}
	}
}

// plainIfs sets the probability of each If of f that tests the whole,
// simple condition of an if statement the model has no region for (an if
// that begins a rotated loop's body, at the loop's header), from the
// profile's counts of the statement's then arm.
func (o *Oracle) plainIfs(f *model.Func, blocks []*ssa.BasicBlock) {
	stmts := map[token.Pos]*ast.IfStmt{}
	ast.Inspect(f.Syntax, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok {
			if c, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr); ok && c.Op != token.LAND && c.Op != token.LOR {
				stmts[c.OpPos] = s
			}
		}
		return true
	})
	for _, b := range blocks {
		s := stmts[ifCond(b).Pos()]
		if _, set := o.branch[b]; set || s == nil {
			continue
		}
		id := f.SiteID("if", s.Pos())
		if then, ok := o.region(id + "/then"); ok && then.Prob != nil {
			o.branch[b] = *then.Prob
		}
		o.setRanBranch(b, id+"/then", id+"/else")
	}
}

// testBranches sets the probability of each If of f that evaluates a
// branch test (profiler.BranchTests) whose outcomes the profile counted:
// the share of true outcomes, exact for the If that tests it (a part of
// a compound condition, a case expression, an if the model has no
// region for), so it wins over the if region's then arm and the loop's
// exit rate.
func (o *Oracle) testBranches(f *model.Func, blocks []*ssa.BasicBlock) {
	tests := profiler.BranchTests(f.Syntax)
	for _, b := range blocks {
		for _, e := range tests {
			if !isTestValue(e, ifCond(b)) {
				continue
			}
			site := f.SiteID("test", e.Pos())
			if t, ok := o.region(profiler.BranchTestID(site, true)); ok && t.Prob != nil {
				o.branch[b] = *t.Prob // Succs[0] is where the test's true goes
			}
			o.setRanBranch(b, profiler.BranchTestID(site, true), profiler.BranchTestID(site, false))
			break
		}
	}
}

// setRanBranch records ranBranch[b] from the region of b's first arm,
// or else from the region of its other arm: one that the profiled run
// itself reached (not filled in from a run with more ranks), whose share
// then gives the other's. Tests decide after arms: it overwrites.
func (o *Oracle) setRanBranch(b *ssa.BasicBlock, first, other string) {
	if r, ok := o.region(first); ok && r.Ranks == 0 && r.Execs > 0 && r.Prob != nil {
		o.ranBranch[b] = *r.Prob
	} else if r, ok := o.region(other); ok && r.Ranks == 0 && r.Execs > 0 && r.Prob != nil {
		o.ranBranch[b] = 1 - *r.Prob
	}
}

// loopExit is a loop exit test's loop and its profiled iterations per
// entry.
type loopExit struct {
	id    string
	iters float64
	stay0 bool // the test's first successor is in the loop
}

// takenRate is how often a branch goes to its successor i, from p, how
// often it goes to its first.
func takenRate(p float64, i int) float64 {
	if i == 1 {
		return 1 - p
	}
	return p
}

// exitRate is how often a loop exit test leaves the loop, from p, how
// often it goes to its first successor.
func exitRate(p float64, stay0 bool) float64 {
	if stay0 {
		return takenRate(p, 1)
	}
	return takenRate(p, 0)
}

// LoopExit implements interpreter.LoopExiter for the exit tests that have
// outcome counts of their own, in loops with more than one: their rates
// add up to the loop's. A test that takes the loop's shared exit rate
// (sharedExit) has the whole rate already, and a loop's only test keeps
// profiledBranch's accumulator.
func (o *Oracle) LoopExit(b *ssa.BasicBlock) (loop string, stay0 bool, ok bool) {
	e, ok := o.loopExit[b]
	if !ok || !o.groupedExits[b] {
		return "", false, false
	}
	return e.id, e.stay0, true
}

// loopBranches sets the probabilities of loop r's exit tests.
func (o *Oracle) loopBranches(id string, r *model.Region) {
	pr, ok := o.region(id)
	if !ok || pr.Iters+pr.Execs == 0 {
		return
	}
	in := map[*ssa.BasicBlock]bool{}
	for _, b := range r.Blocks {
		in[b] = true
	}
	counted := o.exitTests(id, r)
	var shared, own []*ssa.BasicBlock
	exits := 0
	for _, b := range r.Blocks {
		if len(b.Succs) != 2 || in[b.Succs[0]] == in[b.Succs[1]] {
			continue
		}
		exits++
		if pr.Execs > 0 {
			o.loopExit[b] = loopExit{id: id, iters: float64(pr.Iters) / float64(pr.Execs), stay0: in[b.Succs[0]]}
		}
		if counted[b] {
			own = append(own, b)
			continue
		}
		shared = append(shared, b)
		// An exit test: at the header it runs once more than the body
		// per entry; elsewhere (a bottom test) once per iteration.
		stay := float64(pr.Iters) / float64(pr.Iters+pr.Execs)
		if b != r.Entry && pr.Iters > 0 {
			stay = float64(pr.Iters-pr.Execs) / float64(pr.Iters)
		}
		stay = min(max(stay, 0), 1)
		if in[b.Succs[0]] {
			o.branch[b] = stay
		} else {
			o.branch[b] = 1 - stay
		}
	}
	if exits > 1 {
		for _, b := range shared {
			o.sharedExit[b] = id
		}
	}
	if len(own) > 1 {
		for _, b := range own {
			o.groupedExits[b] = true
		}
	}
	if pr.Execs > 0 {
		o.guardBranches(r, in)
	}
}

// guardBranches sets the probability of the test go/ssa puts before a
// rotated loop (for range n: if 0 < n, then the body with the exit test
// after it), outside the loop, to entering: the profile counts no
// outcomes for it, and taken half the time it skipped every other entry
// of a loop over a count the rank does not know, whose time per entry
// (the profiled mean, zero-trip entries included) assumes every entry.
func (o *Oracle) guardBranches(r *model.Region, in map[*ssa.BasicBlock]bool) {
	exits := map[*ssa.BasicBlock]bool{}
	for _, b := range r.Blocks {
		for _, s := range b.Succs {
			if !in[s] {
				exits[s] = true
			}
		}
	}
	for _, g := range r.Entry.Preds {
		if in[g] || len(g.Succs) != 2 || len(g.Instrs) == 0 {
			continue
		}
		if _, isIf := g.Instrs[len(g.Instrs)-1].(*ssa.If); !isIf {
			continue
		}
		enter := slices.Index(g.Succs, r.Entry)
		if !exits[g.Succs[1-enter]] {
			continue
		}
		o.rotatedGuard[g] = true
		if _, set := o.branch[g]; set {
			continue
		}
		o.branch[g] = float64(1 - enter) // Succs[0] is where the test's true goes
	}
}

// exitTests sets the probability of each If of loop r that evaluates one
// of its exit tests (profiler.ExitTests) from that test's outcome counts,
// and returns those blocks.
func (o *Oracle) exitTests(id string, r *model.Region) map[*ssa.BasicBlock]bool {
	loop, ok := r.Node().(ast.Stmt)
	if !ok {
		return nil
	}
	tests := profiler.ExitTests(loop)
	if tests == nil {
		return nil
	}
	done := map[*ssa.BasicBlock]bool{}
	for _, b := range r.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for i, e := range tests {
			if !isTestValue(e, br.Cond) {
				continue
			}
			if t, ok := o.region(profiler.TestID(id, i, true)); ok && t.Prob != nil {
				o.branch[b] = *t.Prob // Succs[0] is where the test's true goes
				done[b] = true
			}
			break
		}
	}
	return done
}

// isTestValue reports whether v, an If's condition, is the value of test
// e: for a comparison or a call the SSA value has the operator's or the
// call's position; for other tests the value lies within the test's text
// (a test that is itself a call with a compound argument holds Ifs of its
// own, which the exact positions tell apart).
func isTestValue(e ast.Expr, v ssa.Value) bool {
	p := v.Pos()
	switch e := e.(type) {
	case *ast.BinaryExpr:
		return p == e.OpPos
	case *ast.CallExpr:
		return p == e.Lparen
	}
	return p.IsValid() && e.Pos() <= p && p < e.End()
}

// IsUser implements interpreter.Oracle.
func (o *Oracle) IsUser(fn *ssa.Function) bool {
	if _, ok := o.user[fn]; ok {
		return true
	}
	// A method value (g.relax), method expression or promoted method
	// runs through a synthetic wrapper around a method of the program:
	// executed, it calls the method, whose loops then cost what they do.
	if d := loopnest.DeclaredFunc(fn.Prog, fn); d != fn && len(fn.Blocks) > 0 {
		_, ok := o.user[d]
		return ok
	}
	return false
}

// BlockCost implements interpreter.Oracle.
func (o *Oracle) BlockCost(b *ssa.BasicBlock) float64 { return o.block[b] }

// Reduction implements interpreter.Oracle.
func (o *Oracle) Reduction(from, to *ssa.BasicBlock) *interpreter.Reduction {
	red := o.reduce[edge{from, to}]
	if red != nil && o.otherArgs {
		for _, n := range o.uncounted[red] {
			o.addNote(n)
		}
	}
	return red
}

// BranchTaken implements interpreter.Oracle. A branch the profile says
// nothing about (a part of a compound condition, a case clause) is taken
// half the time, and noted.
func (o *Oracle) BranchTaken(b *ssa.BasicBlock) (float64, bool) {
	if p, ok := o.branch[b]; ok {
		if loop, shared := o.sharedExit[b]; shared && o.otherArgs {
			o.note(o.mp.Fset, branchPos(b), "loop %s has more than one exit test and this one depends on data: it exits at the loop's profiled rate, which the profile's arguments (%s) set; with other arguments the trip count may be wrong (docs/prediction.md, Known limits)",
				loop, strings.Join(o.prof.Meta.Args, " "))
		} else if e, ok := o.loopExit[b]; ok && o.otherArgs && o.groupedExits[b] && exitRate(p, e.stay0) == 0 {
			// heat's "step < maxSteps && change > tol" with -steps: the
			// loop's count is the other test's, not the profile's.
			o.note(o.mp.Fset, branchPos(b), "loop %s has an exit test on data the interpreter does not know, which never ended the loop in the profile's run (%s): assumed not to end it with these arguments either, so the loop's other exit tests decide its count (an iteration to convergence that stops earlier here is not seen)",
				e.id, strings.Join(o.prof.Meta.Args, " "))
		} else if ok && o.otherArgs {
			o.note(o.mp.Fset, branchPos(b), "loop %s exits on data the interpreter does not know: it runs %.4g iterations per entry, as in the profile's run (%s); with these arguments it may run more or fewer (an iteration to convergence): profile with arguments closer to these if it matters",
				e.id, e.iters, strings.Join(o.prof.Meta.Args, " "))
		}
		return p, true
	}
	// The profiled run ended normally, so an arm that always ends the
	// program (Abort, os.Exit, log.Fatal, a panic) was never taken.
	if len(b.Succs) == 2 {
		switch a, c := endsProgram(b.Succs[0]), endsProgram(b.Succs[1]); {
		case a && !c:
			return 0, true
		case c && !a:
			return 1, true
		}
	}
	if r := o.enclosingIf(b); r != nil {
		if then, ok := o.region(r.ID() + "/then"); ok && then.Prob != nil {
			return *then.Prob, true
		}
		// Only the else arm ran (a contention run's numbers, filled in
		// for code the profiled run never reached, keep the arms that
		// ran): the then arm was never taken.
		if els, ok := o.region(r.ID() + "/else"); ok && els.Prob != nil {
			return 1 - *els.Prob, true
		}
		// An if inside a loop whose one arm returns from the function
		// is an early exit on data (a search, a check): as for loops the
		// profile saw without early exits, assume the loop runs to its
		// end. Taken half the time, it would leave a long loop in its
		// first iterations.
		if loop := enclosingLoop(r); loop != nil && len(b.Succs) == 2 {
			if thenReturns := returns(b.Succs[0]); thenReturns != returns(b.Succs[1]) {
				o.note(o.mp.Fset, branchPos(b), "branch without profile data returns from inside %s: assumed not taken", loop.ID())
				if thenReturns {
					return 0, true
				}
				return 1, true
			}
		}
	}
	o.note(o.mp.Fset, branchPos(b), "branch without profile data: taken half the time")
	if o.prof.Meta.NP <= 1 {
		o.addNote(unreachedHint)
	}
	return 0.5, true
}

// unreachedHint is the note that goes with branches without profile data
// when the profile was made at one rank: code that runs only with more
// ranks (a merge after a recursive split, an exchange) is never reached
// there, and a profile at two ranks reaches it.
const unreachedHint = "branches without profile data are in code the profiled run (1 rank) never reached: if it runs only with more ranks (an exchange, the merges of a recursive split), profile with contention runs, whose runs at 2 ranks and more fill it in (predict speedup --profile-ppn 1,2; predict validate makes them), or at 2 ranks (predict profile --np 2; speedup and validate profile at the smallest --np)"

// enclosingLoop is the innermost loop region around r, nil if none.
func enclosingLoop(r *model.Region) *model.Region {
	for p := r.Parent; p != nil; p = p.Parent {
		if p.Kind.IsLoop() {
			return p
		}
	}
	return nil
}

// returns reports whether b leads, through blocks with one successor, to a
// return from its function.
func returns(b *ssa.BasicBlock) bool {
	for range 8 {
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				return true
			}
		}
		if len(b.Succs) != 1 {
			return false
		}
		b = b.Succs[0]
	}
	return false
}

// endsProgram reports whether every path from b (through the blocks b
// dominates) ends the program: a panic or a call that never returns.
func endsProgram(b *ssa.BasicBlock) bool {
	for _, in := range b.Instrs {
		switch x := in.(type) {
		case *ssa.Panic:
			return true
		case ssa.CallInstruction:
			if fn := x.Common().StaticCallee(); fn != nil && neverReturns(fn) {
				return true
			}
		}
	}
	last := b.Instrs[len(b.Instrs)-1]
	if _, ok := last.(*ssa.Return); ok || len(b.Succs) == 0 {
		return false
	}
	for _, s := range b.Succs {
		if s.Idom() != b || !endsProgram(s) {
			return false
		}
	}
	return true
}

func neverReturns(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	pkg := ""
	if fn.Pkg != nil {
		pkg = fn.Pkg.Pkg.Path()
	}
	name := fn.Name()
	switch {
	case pkg == "os" && name == "Exit", pkg == "log" && strings.HasPrefix(name, "Fatal"),
		pkg == "log" && strings.HasPrefix(name, "Panic"), pkg == "runtime" && name == "Goexit":
		return true
	case strings.HasSuffix(pkg, "/mpi") && name == "Abort":
		return true
	}
	return false
}

func (o *Oracle) enclosingIf(b *ssa.BasicBlock) *model.Region {
	f := o.user[b.Parent()]
	if f == nil {
		return nil
	}
	for r := f.BasicOf(b); r != nil; r = r.Parent {
		if r.Kind == model.IfThen || r.Kind == model.IfThenElse {
			return r
		}
		if r.Kind.IsLoop() {
			return nil
		}
	}
	return nil
}

// branchPos is where the If ending b tests its condition, for notes that
// name a branch; b's first position when the condition has none.
func branchPos(b *ssa.BasicBlock) token.Pos {
	if n := len(b.Instrs); n > 0 {
		if br, ok := b.Instrs[n-1].(*ssa.If); ok && br.Cond.Pos().IsValid() {
			return br.Cond.Pos()
		}
	}
	return blockPos(b)
}

func blockPos(b *ssa.BasicBlock) token.Pos {
	for _, in := range b.Instrs {
		if in.Pos().IsValid() {
			return in.Pos()
		}
	}
	return b.Parent().Pos()
}

// SiteBytes implements interpreter.SiteSizer: the mean payload per call of
// the profile's MPI calls at site of operation op.
func (o *Oracle) SiteBytes(site, op string) (float64, bool) {
	if s := o.mpiSites[mpiSiteKey{site, op}]; s != nil && s.Calls > 0 && s.Bytes > 0 {
		return float64(s.Bytes) / float64(s.Calls), true
	}
	return 0, false
}

// SiteData implements interpreter.SiteDataer: the payload every call of
// the profile's MPI call site of operation op carried.
func (o *Oracle) SiteData(site, op string) ([]byte, bool) {
	if s := o.mpiSites[mpiSiteKey{site, op}]; s != nil && len(s.Data) > 0 {
		return s.Data, true
	}
	return nil, false
}

// mpiSiteKey names one of the profile's MPI call sites (Site, Op), which
// the profile lists once each.
type mpiSiteKey struct{ site, op string }

// CopyCost implements interpreter.CopyCoster: a copy statement the
// profiler timed and counted (kind copy) costs its profiled time per
// element copied, which the profile took out of the region around it.
func (o *Oracle) CopyCost(call ssa.CallInstruction) (perElem, meanElems float64, label string, ok bool) {
	f := o.user[call.Parent()]
	if f == nil {
		return 0, 0, "", false
	}
	id := f.SiteID(string(profiler.Copy), call.Common().Pos())
	pr, found := o.region(id)
	if !found || !pr.Timed || pr.Iters <= 0 || pr.Execs <= 0 {
		return 0, 0, "", false
	}
	return pr.TotalNs * 1e-9 / float64(pr.Iters), float64(pr.Iters) / float64(pr.Execs), id, true
}

// LibraryCost implements interpreter.LibraryCoster: a library call site
// the profiler timed and whose argument lengths it counted (its Iters)
// costs its own time per element of those arguments, or per n log2 n of
// them for a sort (profiler.LibraryUnits). The length to assume where the
// rank does not know one depends on the rank count (onNode's).
func (o *Oracle) LibraryCost(call ssa.CallInstruction) (interpreter.LibraryCost, bool) {
	pr, found := o.callRegion(call)
	if !found || !pr.Library || !pr.Timed || pr.Iters <= 0 || pr.Execs <= 0 {
		return interpreter.LibraryCost{}, false
	}
	c := call.Common()
	first := 0
	if c.Signature().Recv() != nil {
		first = 1 // a method's receiver, which the profiler does not count
	}
	var args []int
	for i := first; i < len(c.Args); i++ {
		t := c.Args[i].Type()
		if mi, ok := c.Args[i].(*ssa.MakeInterface); ok {
			t = mi.X.Type() // sort.Slice(xs, less): the profiler counts xs
		}
		if profiler.HasLength(t) {
			args = append(args, i)
		}
	}
	if len(args) == 0 {
		return interpreter.LibraryCost{}, false
	}
	return interpreter.LibraryCost{
		Callee:  pr.Callee,
		PerUnit: max(pr.OwnNs, 0) * 1e-9 / profiler.LibraryUnits(pr.Callee, pr.Iters, pr.Execs),
		Args:    args,
		NLogN:   profiler.SortsByLength(pr.Callee),
	}, true
}

// callRegion is the profile's region of call's statement.
func (o *Oracle) callRegion(call ssa.CallInstruction) (*profiler.Region, bool) {
	return o.callSite(call, false)
}

// callSite is the profile's region of a call statement; with carried
// false, not one whose time a kernel's rate carries (kernelRates).
func (o *Oracle) callSite(call ssa.CallInstruction, carried bool) (*profiler.Region, bool) {
	f := o.user[call.Parent()]
	if f == nil {
		return nil, false
	}
	b := call.Block()
	for i, in := range b.Instrs {
		if in == call {
			if l := f.LeafAt(b, i); l != nil && (carried || !o.carried[l.ID()]) {
				return o.region(l.ID())
			}
			break
		}
	}
	return nil, false
}

// libNoteShare is the share of the profiled run from which a library call
// site predicted with other arguments than the profile's is noted: the
// others (a Println, flag.Parse) matter little whatever their arguments.
const libNoteShare = 0.01

// CallCost implements interpreter.Oracle: the profiled own time of the
// call's statement when it was timed (else its time is part of the
// enclosing region's block costs).
func (o *Oracle) CallCost(call ssa.CallInstruction) float64 {
	pr, ok := o.callRegion(call)
	if !ok || !pr.Timed || pr.Execs <= 0 {
		return 0
	}
	// An own time below zero is the probes' calibrated cost exceeding
	// what the site measured, not time.
	t := max(pr.OwnNs, 0) * 1e-9 / float64(pr.Execs)
	if pr.Library && pr.Iters <= 0 && o.otherArgs && max(pr.OwnNs, 0) >= libNoteShare*o.prof.Totals.MainNs {
		o.note(o.mp.Fset, call.Pos(), "library call %s costs its profiled %s per call, measured with the profile's arguments (%s); with these its time may differ (a sort of more elements takes longer): profile with arguments closer to these if it matters",
			pr.Callee, time.Duration(t*1e9).Round(time.Microsecond), strings.Join(o.prof.Meta.Args, " "))
	}
	return t
}
