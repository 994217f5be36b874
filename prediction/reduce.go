package prediction

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// addReduction turns a reduced nest of the plan into the interpreter's
// Reduction: its entry and exit edges, what it may write, and its time as
// a function of its trip counts.
//
// The profile times the nest's root (and whatever inner loops it chose to
// time); the time of untimed inner loops is folded into their timed
// ancestor. So that the modelled time scales with the work when the trip
// counts change (a prediction at a larger size than the profile), a timed
// loop's own time is charged per iteration of its innermost counted loops
// (the leaves of its untimed subtree), not per iteration of the loop
// itself: for a dense i, j, k nest, time = k-iterations x cost per
// k-iteration.
func (o *Oracle) addReduction(root *loopnest.Loop) error {
	return o.addReductionIgnoring(root, nil)
}

// addReductionIgnoring is addReduction where the exit edges in never are
// left out: exits the profile never saw taken.
func (o *Oracle) addReductionIgnoring(root *loopnest.Loop, never map[edge]bool) error {
	red, in, err := o.reduction(root, never)
	if err != nil {
		return err
	}
	if rot := root.Rotation; rot != nil && root.Trip != nil && red.ExitFrom == root.Header {
		red.Rotation = &interpreter.Rotation{Phis: rot.Phis, At: rot.At, Trips: trips(root)}
	}
	for _, p := range root.Header.Preds {
		if !in[p] {
			o.reduce[edge{p, root.Header}] = red
		}
	}
	if notes := o.uncountedNotes(root); len(notes) > 0 {
		o.uncounted[red] = notes
	}
	return nil
}

// uncountedNotes are, for each loop inside the nest rooted at root (its
// callees' included) that has no trip count, the note that its count
// comes from the profile's run: its iterations are part of the measured
// time of an iteration of the counted loop around it, so with other
// arguments (--profile-args) they are as many per iteration as then.
// Reduction adds them when the simulated arguments are not the
// profile's.
func (o *Oracle) uncountedNotes(root *loopnest.Loop) []string {
	var notes []string
	seen := map[*loopnest.Loop]bool{}
	root.WalkAll(func(x *loopnest.Loop) {
		orig := x
		if x.Inlined != nil {
			// A callee copy holds the counted inner loops only.
			if orig = o.lp.Loop(x.ID); orig == nil {
				return
			}
		}
		for _, in := range orig.Inner {
			if in.Trip != nil || seen[in] {
				continue
			}
			seen[in] = true
			why := "its count depends on data"
			if len(in.Notes) > 0 {
				why = in.Notes[0]
			}
			notes = append(notes, fmt.Sprintf("%s: loop %s, inside the reduced nest %s, has no trip count the model can compute (%s): its iterations cost what they did per iteration of the loop around it in the profile's run (%s); with these arguments there may be more or fewer of them per iteration: profile with arguments closer to these if it matters",
				o.mp.Fset.Position(in.Pos), in.ID, root.ID, why, strings.Join(o.prof.Meta.Args, " ")))
		}
	})
	return notes
}

// reduction builds the Reduction of the nest rooted at root, leaving out
// the exit edges in never, and tells which blocks are the nest's.
func (o *Oracle) reduction(root *loopnest.Loop, never map[edge]bool) (*interpreter.Reduction, map[*ssa.BasicBlock]bool, error) {
	in := map[*ssa.BasicBlock]bool{}
	var blocks []*ssa.BasicBlock
	for _, b := range append(append([]*ssa.BasicBlock(nil), root.Blocks...), root.Arms...) {
		if !in[b] {
			in[b] = true
			blocks = append(blocks, b)
		}
	}
	var exitFrom, exit *ssa.BasicBlock
	for _, b := range blocks {
		for _, s := range b.Succs {
			if in[s] || never[edge{b, s}] {
				continue
			}
			if exit != nil && (s != exit || b != exitFrom) {
				return nil, nil, errors.New("it has more than one exit")
			}
			exitFrom, exit = b, s
		}
	}
	if exit == nil {
		return nil, nil, errors.New("it never exits")
	}
	costs, err := o.iterationCosts(root, false)
	if err != nil {
		return nil, nil, err
	}
	if len(costs) == 0 {
		costs = o.kernelCosts(root)
	}
	// With the loops of the kernels the nest calls counted on their own
	// (their trip counts follow the call's arguments), when the profile
	// has what that needs; the nest's own loops alone otherwise, or when
	// a callee's counts cannot be evaluated at an entry.
	var inlined map[*loopnest.Loop]float64
	if hasCallees(root) {
		if c, err := o.iterationCosts(root, true); err == nil && len(c) > 0 {
			inlined = c
		}
	}
	red := &interpreter.Reduction{
		ID: root.ID, Blocks: blocks, ExitFrom: exitFrom, Exit: exit,
		Distributed: root.RankSize || o.guarded(root), Needs: root.BoundValues(),
	}
	var grown map[*ssa.Store]bool
	red.Grows, red.GrowCounts, grown = growths(root, blocks, in)
	red.PhiGrows, red.PhiGrowCounts = o.phiGrowths(root, in, exitFrom)
	red.Writes, red.WritesThrough = writes(blocks, in, grown, o.storesNothing, o.dynamicCallees)
	if pr, ok := o.region(root.ID); ok && pr.Timed && pr.Execs > 0 {
		red.MeanTime = pr.TotalNs * 1e-9 / float64(pr.Execs)
	} else if ok && pr.Execs > 0 {
		// An untimed nest (a kernel's, costed per iteration of its
		// innermost loops): its costs times the iterations the profile
		// counted, per entry.
		red.MeanTime = o.profiledNestTime(root, costs) / float64(pr.Execs)
	}
	imb := o.iterationTimes(root)
	spread := o.innerSpread(root)
	red.Infer = o.inferredTime(root, costs)
	red.Small = smallRun(root)
	counted := func(env symbolic.Env) (float64, error) {
		if inlined != nil {
			if iters, err := loopnest.IterationsGuarded(root, env, true, o.trustGuard); err == nil {
				return nestTime(root, iters, inlined), nil
			}
		}
		iters, err := loopnest.IterationsGuarded(root, env, false, o.trustGuard)
		if err != nil {
			return 0, err
		}
		return nestTime(root, iters, costs), nil
	}
	red.Time = func(bind interpreter.Binder) (float64, error) {
		env := binderEnv{bind}
		if imb != nil {
			if v, ok := imb(env); ok {
				// The counted time holds what the entry's inner loops
				// run (a call over one column of the rows costs a
				// column); the vector says how much dearer than a mean
				// iteration the rank's iterations are.
				if t, err := counted(env); err == nil {
					return t * v.share, nil
				}
				return v.time, nil
			}
		}
		if spread != nil {
			t, err := counted(env)
			return t * spread(bind), err
		}
		return counted(env)
	}
	return red, in, nil
}

// innerSpread is, for a nest whose inner loops exit on data (a sparse
// row's nonzeros: their count is not a trip count, and their time is in
// the outer iterations' profiled mean), the factor by which a rank's time
// differs from that mean where the profile's --ppn runs saw those loops'
// iterations per entry spread over the ranks by more than 5 % (rankSpread:
// the middle ranks' rows denser): each such loop weighs its share of the
// nest's iterations in the profile, its iterations scaled by the rank's
// share times the rank count. nil where no inner loop needs it.
func (o *Oracle) innerSpread(root *loopnest.Loop) func(interpreter.Binder) float64 {
	if o.prof.Contention == nil || len(o.prof.Contention.RankTrips) == 0 {
		return nil
	}
	var all int64
	root.Walk(func(l *loopnest.Loop) {
		if pr, ok := o.region(l.ID); ok {
			all += pr.Iters
		}
	})
	if all == 0 {
		return nil
	}
	type weighed struct {
		id string
		w  float64
	}
	var loops []weighed
	root.Walk(func(l *loopnest.Loop) {
		if pr, ok := o.region(l.ID); ok && l != root && l.Trip == nil && o.prof.Contention.RankTrips[l.ID] != nil {
			loops = append(loops, weighed{l.ID, float64(pr.Iters) / float64(all)})
		}
	})
	if len(loops) == 0 {
		return nil
	}
	// The factor of each rank, per rank count (nil: 1 on every rank),
	// made once: the nest is entered on every rank at every step.
	var (
		mu     sync.Mutex
		bySize = map[int][]float64{}
	)
	factors := func(size int) []float64 {
		mu.Lock()
		defer mu.Unlock()
		f, ok := bySize[size]
		if ok || o.contention == nil {
			return f
		}
		for _, l := range loops {
			sh, k, ok := o.contention.unevenSpread(l.id, size)
			if !ok {
				continue
			}
			if f == nil {
				f = make([]float64, size)
				for r := range f {
					f[r] = 1
				}
			}
			for r := range f {
				f[r] += l.w * (sh[r]*float64(size) - 1)
			}
			o.note(root.Func.Prog.Fset, root.Pos, "reduced nest %s: the iterations of its inner loop %s, which exits on data, are the profile's mean per entry times each rank's share, as they spread over the ranks in the profile's run at %d ranks (mapped onto these ranks in rank order)", root.ID, l.id, k)
		}
		bySize[size] = f
		return f
	}
	return func(bind interpreter.Binder) float64 {
		f := factors(int(bind.Size(nil)))
		if f == nil {
			return 1
		}
		rank := int(bind.Rank(nil))
		if rank < 0 || rank >= len(f) {
			return 1
		}
		return max(f[rank], 0)
	}
}

// addGiveUps lets a loop that runs step by step only because what it
// computes steers what follows (loopnest's SteersOnly: a count or sum
// returned as an integer, a maximum tested after it) stop running once
// what it computes is unknown, as it is over data that reduced nests or
// MPI calls left unknown (rank 0's checksum of a gathered image): each
// result is computed from itself, so it stays unknown, and running the
// rest would cost the simulation millions of steps for nothing. The
// loop's Reduction sits on its back edges (interpreter.GiveUp); its
// remaining iterations cost their share of the nest's time.
func (o *Oracle) addGiveUps(lp *loopnest.Program) {
	for _, f := range lp.Funcs {
		for _, l := range f.Loops {
			d := l.Reduction
			if d.Reducible || !d.SteersOnly() || l.Trip == nil || l.Counter == nil || l.Counter.Step == 0 {
				continue
			}
			pr, ok := o.region(l.ID)
			if !ok {
				continue
			}
			red, in, err := o.reduction(l, nil)
			if err != nil {
				continue
			}
			g, ok := giveUp(l, in)
			if !ok {
				continue
			}
			red.GiveUp = g
			if pr.Timed && pr.Iters > 0 {
				red.IterTime = pr.TotalNs * 1e-9 / float64(pr.Iters)
			}
			if pr.Imbalance != nil && o.prof.Meta.NP == 1 {
				g.Left = iterationsLeft(pr.Imbalance.IterNs)
			}
			if red.Needs != nil && !isConst(g.Init) {
				red.Needs = append(red.Needs, g.Init)
			}
			for _, p := range l.Header.Preds {
				if in[p] {
					o.reduce[edge{p, l.Header}] = red
				}
			}
		}
	}
}

// iterationsLeft is a GiveUp's Left from a loop's per-iteration times
// (one rank's iteration ordinals): the share of the times from ordinal
// done on, for an entry of as many iterations as the vector has.
func iterationsLeft(times []float64) func(done, trips int64) (float64, bool) {
	suffix := make([]float64, len(times)+1) // suffix[i]: the times from i on
	for i := len(times) - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + times[i]
	}
	return func(done, trips int64) (float64, bool) {
		if trips != int64(len(times)) || done < 0 || done > trips || suffix[0] <= 0 {
			return 0, false
		}
		return suffix[done] / suffix[0], true
	}
}

// giveUp is loop l's GiveUp, when every value it computes that is used
// after it (in are its blocks) is a header phi computed from itself and
// its counter starts from one value.
func giveUp(l *loopnest.Loop, in map[*ssa.BasicBlock]bool) (*interpreter.GiveUp, bool) {
	g := &interpreter.GiveUp{Counter: l.Counter.Phi, Step: l.Counter.Step, Trips: trips(l)}
	for i, p := range l.Header.Preds {
		if in[p] {
			continue
		}
		if g.Init != nil && g.Init != g.Counter.Edges[i] {
			return nil, false
		}
		g.Init = g.Counter.Edges[i]
	}
	if g.Init == nil {
		return nil, false
	}
	for b := range in {
		for _, instr := range b.Instrs {
			v, ok := instr.(ssa.Value)
			if !ok || v.Referrers() == nil {
				continue
			}
			usedAfter := slices.ContainsFunc(*v.Referrers(), func(r ssa.Instruction) bool {
				rb := r.Block()
				return rb != nil && !in[rb]
			})
			if !usedAfter {
				continue
			}
			phi, ok := v.(*ssa.Phi)
			if !ok || phi.Block() != l.Header {
				// A loop tested after its body (a range over an int)
				// is left with what its header phi takes by the back
				// edge.
				phi = takenBack(l.Header, in, v)
			}
			if phi == nil || !absorbs(phi, l.Header, in, true) {
				return nil, false
			}
			if !slices.Contains(g.Results, phi) {
				g.Results = append(g.Results, phi)
			}
		}
	}
	if len(g.Results) == 0 {
		return nil, false
	}
	// Blocks in map order: the results in the header's order.
	slices.SortFunc(g.Results, func(a, b *ssa.Phi) int { return cmp.Compare(phiIndex(a), phiIndex(b)) })
	for _, phi := range g.Results {
		g.Joined = append(g.Joined, joined(phi, l.Header, in))
		g.Loose = append(g.Loose, !absorbs(phi, l.Header, in, false))
	}
	return g, true
}

// trips is loop l's trip count per entry, from the binder of the frame
// that enters it.
func trips(l *loopnest.Loop) func(interpreter.Binder) (int64, error) {
	return func(b interpreter.Binder) (int64, error) { return l.Trip.Eval(binderEnv{b}) }
}

// takenBack is the phi of header that takes v by every back edge (in are
// the loop's blocks), nil if none.
func takenBack(header *ssa.BasicBlock, in map[*ssa.BasicBlock]bool, v ssa.Value) *ssa.Phi {
	for _, instr := range header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		all := true
		for i, p := range header.Preds {
			all = all && (!in[p] || phi.Edges[i] == v)
		}
		if all {
			return phi
		}
	}
	return nil
}

// joined reports whether a value header phi phi takes by a back edge
// passes through a phi of another of the loop's blocks (in): where arms
// join, or an inner loop's header, so that which way a branch went
// decides it (hits++ in one arm).
func joined(phi *ssa.Phi, header *ssa.BasicBlock, in map[*ssa.BasicBlock]bool) bool {
	// Arms that each jump back to the header (an if without an else, a
	// continue) join in the header phi itself: k by one back edge, k+1
	// by the other.
	var back ssa.Value
	for i, e := range phi.Edges {
		if i < len(header.Preds) && in[header.Preds[i]] {
			if back != nil && e != back {
				return true
			}
			back = e
		}
	}
	vals, _ := backEdgeValues(phi, header, in)
	return slices.ContainsFunc(vals, func(v ssa.Value) bool {
		p, ok := v.(*ssa.Phi)
		return ok && p.Block() != header && in[p.Block()]
	})
}

// isLoopHeader reports whether b is entered again by a back edge: one of
// its predecessors is dominated by it.
func isLoopHeader(b *ssa.BasicBlock) bool {
	return slices.ContainsFunc(b.Preds, func(p *ssa.BasicBlock) bool { return b.Dominates(p) })
}

// phiIndex is phi's place among its block's instructions.
func phiIndex(phi *ssa.Phi) int { return slices.Index(phi.Block().Instrs, ssa.Instruction(phi)) }

// absorbs reports whether header phi phi, once unknown, stays unknown:
// every value it takes by a back edge is computed from it by operations
// that give unknown for an unknown operand (the evaluator's arithmetic,
// conversions), through the loop's own phis. An inner loop's phi may
// also take its own value back (k += row[j] summed row by row: the inner
// phi starts from phi and then from itself), so the answer is the
// greatest fixed point over the values involved: each holds until its
// rule fails given the others, a cycle through phis holding when all its
// entries come from phi. With loose, a join of a branch's arms holds when
// one of its entries does (GiveUp.Loose).
func absorbs(phi *ssa.Phi, header *ssa.BasicBlock, in map[*ssa.BasicBlock]bool, loose bool) bool {
	vals, ok := backEdgeValues(phi, header, in)
	if !ok {
		return false
	}
	index := make(map[ssa.Value]int, len(vals))
	for i, v := range vals {
		index[v] = i
	}
	holds := make([]bool, len(vals))
	for i := range holds {
		holds[i] = true
	}
	from := func(v ssa.Value) bool {
		if v == phi {
			return true
		}
		i, ok := index[v]
		return ok && holds[i]
	}
	for changed := true; changed; {
		changed = false
		for i, v := range vals {
			if !holds[i] {
				continue
			}
			// An operation is unknown when either operand is; a phi
			// when every value it may take is; a conversion when its
			// one operand is.
			ops := absorbOperands(v, header, in)
			ok := len(ops) > 0
			if _, bin := v.(*ssa.BinOp); bin {
				ok = from(ops[0]) || from(ops[1])
			} else if p, isPhi := v.(*ssa.Phi); loose && isPhi && !isLoopHeader(p.Block()) && ok {
				// Where a branch's arms join (last = i in one arm): once
				// the branch is decided by a guess, what it joins is a
				// guess too, the counter's copy with the rest.
				ok = slices.ContainsFunc(ops, from)
			} else {
				for _, e := range ops {
					ok = ok && from(e)
				}
			}
			if !ok {
				holds[i], changed = false, true
			}
		}
	}
	for i, p := range header.Preds {
		if in[p] && !from(phi.Edges[i]) {
			return false
		}
	}
	return true
}

// backEdgeValues are the values that header phi phi's values by the
// back edges are computed from, through absorbOperands (phi itself left
// out); false when there are too many to look at.
func backEdgeValues(phi *ssa.Phi, header *ssa.BasicBlock, in map[*ssa.BasicBlock]bool) ([]ssa.Value, bool) {
	const most = 512
	var vals []ssa.Value
	seen := map[ssa.Value]bool{}
	var collect func(v ssa.Value)
	collect = func(v ssa.Value) {
		if seen[v] || v == phi || len(vals) > most {
			return
		}
		seen[v] = true
		vals = append(vals, v)
		for _, x := range absorbOperands(v, header, in) {
			collect(x)
		}
	}
	for i, p := range header.Preds {
		if in[p] {
			collect(phi.Edges[i])
		}
	}
	return vals, len(vals) <= most
}

// absorbOperands are the operands absorbs follows from v: an arithmetic
// operation's, a conversion's, a non-load unary operation's, or every
// edge of a phi of the loop's blocks other than its header; none for
// anything else (a load, a call, a constant), which does not stay
// unknown.
func absorbOperands(v ssa.Value, header *ssa.BasicBlock, in map[*ssa.BasicBlock]bool) []ssa.Value {
	switch v := v.(type) {
	case *ssa.BinOp:
		return []ssa.Value{v.X, v.Y}
	case *ssa.UnOp:
		if v.Op != token.MUL && v.Op != token.ARROW {
			return []ssa.Value{v.X}
		}
	case *ssa.Convert:
		return []ssa.Value{v.X}
	case *ssa.ChangeType:
		return []ssa.Value{v.X}
	case *ssa.Phi:
		if v.Block() != header && in[v.Block()] {
			return v.Edges
		}
	}
	return nil
}

// isConst reports whether v is a constant.
func isConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return ok
}

// addProfiledExits reduces loops that the plan keeps only because they may
// leave early on data (a search, a check loop returning the first
// mismatch) when the profile never saw them leave early: they then run to
// their counted bound, and what they compute becomes unknown. Loops with
// MPI, impure calls or other effects are never reduced this way.
func (o *Oracle) addProfiledExits(lp *loopnest.Program) {
	for _, f := range lp.Funcs {
		for _, l := range f.Roots {
			if l.Reduction.Reducible || l.Trip == nil || !l.UpperBound || len(l.MPI) > 0 || len(l.Effects) > 0 || !allPure(l.Calls) {
				continue
			}
			if _, ok := o.region(l.ID); !ok {
				continue
			}
			never, ok := o.untakenEarlyExits(l)
			if !ok {
				continue
			}
			if err := o.addReductionIgnoring(l, never); err == nil {
				o.note(l.Func.Prog.Fset, l.Pos, "loop %s leaves early only on data, which the profile never saw: reduced with its full trip count", l.ID)
			}
		}
	}
}

func allPure(sites []loopnest.Site) bool {
	for _, s := range sites {
		if !s.Pure {
			return false
		}
	}
	return true
}

// addUntakenArms reduces loops that the plan keeps only for code in arms
// that end the program (a check loop that reports a mismatch and calls
// Abort) when the profile never saw such an arm taken: the rest of the
// loop only computes, and running it step by step over data the
// simulation does not have (rank 0 comparing a gathered image with a
// serial one) would cost a step per element for nothing. As with a
// branch on unknown data, the prediction follows the profiled run, in
// which the program did not end there.
func (o *Oracle) addUntakenArms(lp *loopnest.Program) {
	for _, f := range lp.Funcs {
		for _, l := range f.Roots {
			d := l.Reduction
			if d.Reducible || d.Steers || l.Trip == nil || l.DataDependent || l.UpperBound {
				continue
			}
			if _, ok := o.region(l.ID); !ok {
				continue
			}
			arms, never := o.untakenEndingArms(l)
			if len(arms) == 0 || !lp.PureWithout(l, arms) {
				continue
			}
			if err := o.addReductionIgnoring(l, never); err == nil {
				o.note(l.Func.Prog.Fset, l.Pos, "loop %s is reduced: its only calls that are not pure are in an arm that ends the program, which the profile's run never took", l.ID)
			}
		}
	}
}

// untakenEndingArms are the blocks of l in arms that end the program
// (endsProgram) and were never taken in the profile's run, by its
// branch counts where it has them, else because the run ended normally
// (as BranchTaken assumes); never are the edges into those arms that
// leave the loop (an arm that panics after Abort is no block of it).
func (o *Oracle) untakenEndingArms(l *loopnest.Loop) (arms map[*ssa.BasicBlock]bool, never map[edge]bool) {
	arms, never = map[*ssa.BasicBlock]bool{}, map[edge]bool{}
	all := slices.Concat(l.Blocks, l.Arms)
	for _, b := range l.Blocks {
		if len(b.Succs) != 2 {
			continue
		}
		p, known := o.branch[b]
		for i, s := range b.Succs {
			if known && takenRate(p, i) != 0 || len(s.Preds) != 1 || !endsProgram(s) || endsProgram(b.Succs[1-i]) {
				continue
			}
			arms[s] = true
			for _, x := range all {
				if s.Dominates(x) {
					arms[x] = true
				}
			}
			if !slices.Contains(all, s) {
				never[edge{b, s}] = true
			}
		}
	}
	return arms, never
}

// untakenEarlyExits returns the loop's early exits (edges out of the loop
// from blocks other than its counter test) if the profile shows each is
// never taken.
func (o *Oracle) untakenEarlyExits(l *loopnest.Loop) (map[edge]bool, bool) {
	in := map[*ssa.BasicBlock]bool{} // the natural loop: arms are where early exits go
	for _, b := range l.Blocks {
		in[b] = true
	}
	never := map[edge]bool{}
	for _, b := range l.Blocks {
		for i, s := range b.Succs {
			if in[s] || b == l.Header {
				continue
			}
			p, known := o.branch[b]
			if !known || len(b.Succs) != 2 {
				return nil, false
			}
			if takenRate(p, i) != 0 {
				return nil, false
			}
			never[edge{b, s}] = true
		}
	}
	return never, len(never) > 0
}

// binderEnv lets loopnest evaluate trip counts with the interpreter's
// values of the frame entering the nest.
type binderEnv struct{ bind interpreter.Binder }

func (e binderEnv) Lookup(s *symbolic.Sym) (int64, bool) {
	if s.Value != nil {
		if v, ok := e.bind.Value(s.Value); ok {
			// A call of Rank or Size that ran answers for its own
			// communicator (a sub-communicator's rank, say).
			return v, true
		}
	}
	// The rank knows its number and the number of ranks whether or not
	// the call ran (it may be in the nest): on the communicator the call
	// is made on, when the frame holds it, else the world's.
	switch s.Kind {
	case symbolic.Rank:
		return e.bind.Rank(loopnest.CommOf(s.Value)), true
	case symbolic.Size:
		return e.bind.Size(loopnest.CommOf(s.Value)), true
	}
	return 0, false
}

// LookupMem implements symbolic.MemEnv.
func (e binderEnv) LookupMem(base ssa.Value, steps []symbolic.ResolvedStep, length bool) (int64, bool) {
	reads := make([]interpreter.MemRead, len(steps))
	for i, st := range steps {
		reads[i] = interpreter.MemRead{Field: st.Field, Index: st.Index}
		switch st.Field {
		case symbolic.Deref:
			reads[i].Field = interpreter.FieldDeref
		case symbolic.Elem:
			reads[i].Field = interpreter.FieldElem
		}
	}
	return e.bind.Memory(base, reads, length)
}

// nestTime sums iterations times cost per iteration, in the nest's
// order so that the sum is the same in every run.
func nestTime(root *loopnest.Loop, iters map[*loopnest.Loop]int64, costs map[*loopnest.Loop]float64) float64 {
	t := 0.0
	root.WalkAll(func(l *loopnest.Loop) {
		if c, ok := costs[l]; ok {
			t += float64(iters[l]) * c
		}
	})
	return t
}

// smallNest bounds the iterations of a nest over the ranks that the
// interpreter runs rather than skips (smallRun).
const smallNest = 4096

// smallConstNest bounds the constant trip count of a nest without inner
// loops, calling only pure functions, that the interpreter runs rather
// than skips.
const smallConstNest = 16

// smallRun is a reduced nest's Reduction.Small for a loop over the
// ranks, run at an entry with at most smallNest iterations (inner loops'
// included, when they only compute: a process grid's divisor search), and
// for a loop of at most smallConstNest constant iterations, always run: what
// they compute (the counts and offsets per rank of a Scatterv, a ring's
// neighbours) stays known to the MPI calls after them; a few
// microseconds of compute, which running it does not charge. nil for
// other nests.
func smallRun(root *loopnest.Loop) func(interpreter.Binder) bool {
	if n, ok := root.Trip.(symbolic.Const); ok && n <= smallConstNest && len(root.Inner) == 0 && len(root.Callees) == 0 && allPure(root.Calls) {
		// A few iterations of arithmetic and calls without loops,
		// always (the two neighbours of a ring filled from a table of
		// steps, the eight of a grid's cell from rankAt): what they
		// write may be ranks the next MPI calls name.
		return func(interpreter.Binder) bool { return true }
	}
	// A table over the ranks: a count of the rank count, not of this
	// rank's number (a rank's block of rows or its cyclic share, whose
	// compute a run of its blocks would not charge), no inner loop.
	// The rank count may come in as a parameter (a process grid's
	// factors searched in dims(p), p the size): what decides is what the
	// count depends on through the program's calls.
	rank := root.OnRank || symbolic.Uses(root.Trip, func(s *symbolic.Sym) bool { return s.Kind == symbolic.Rank })
	if !root.RankSize || rank || len(root.Callees) > 0 {
		return nil
	}
	// A count that names the size (rows, counts := n/size, make(size))
	// runs up to smallNest at every rank count, as it always has; one
	// that has it through a parameter only, or with inner loops, runs
	// while all the ranks' runs of it stay within smallRunBudget
	// iterations: every rank runs its own copy, so a table of P entries
	// costs P squared steps (heat's rowLayout at P = 1024: a million,
	// which halved BenchmarkHeatP1024's events per second).
	budgeted := len(root.Inner) > 0 || !symbolic.Uses(root.Trip, func(s *symbolic.Sym) bool { return s.Kind == symbolic.Size })
	within := func(bind interpreter.Binder, iters int64) bool {
		return iters <= smallNest && (!budgeted || iters*bind.Size(nil) <= smallRunBudget)
	}
	if len(root.Inner) == 0 {
		return func(bind interpreter.Binder) bool {
			n, err := root.Trip.Eval(binderEnv{bind}) // all its iterations
			return err == nil && within(bind, n)
		}
	}
	// A search over the rank count's divisors (a 3-D process grid's
	// factors, a loop in a loop up to p/a): arithmetic only, its
	// iterations all counted.
	if !allPure(root.Calls) || slices.ContainsFunc(root.Inner, func(l *loopnest.Loop) bool { return l.Trip == nil || len(l.Inner) > 0 || !allPure(l.Calls) }) {
		return nil
	}
	return func(bind interpreter.Binder) bool {
		iters, err := loopnest.Iterations(root, binderEnv{bind})
		if err != nil {
			return false
		}
		total := int64(0)
		for _, n := range iters {
			total += n
		}
		return within(bind, total)
	}
}

// smallRunBudget bounds the iterations all ranks together run of a small
// nest whose count has the rank count through a parameter (smallRun): a
// grid's factors at up to 256 ranks, a table of the ranks at up to 512.
const smallRunBudget = 1 << 18

// profiledNestTime is the nest's time in the profiled run by costs: the
// iterations the profile counted of each costed loop times its cost.
func (o *Oracle) profiledNestTime(root *loopnest.Loop, costs map[*loopnest.Loop]float64) float64 {
	iters := map[*loopnest.Loop]int64{}
	for l := range costs {
		if p, ok := o.region(l.ID); ok {
			iters[l] = p.Iters
		}
	}
	return nestTime(root, iters, costs)
}

// hasCallees reports whether a loop of the nest has callee copies.
func hasCallees(root *loopnest.Loop) bool {
	found := false
	root.Walk(func(l *loopnest.Loop) { found = found || len(l.Callees) > 0 })
	return found
}

// iterationCosts assigns each timed loop's exclusive time (seconds) to the
// iterations of the innermost counted loops under it. Exclusive means its
// inclusive time less that of the nearest timed loops inside it, without
// the probes (the own times of what is timed in between: zones).
//
// Without inline, the time of the functions the nest calls is part of the
// exclusive time of the loop that calls them (a reduced nest skips them
// too), so it scales with that loop's iterations only. With inline, the
// callee copies of the nest's loops (loopnest.Loop.Callees) count as
// loops inside the calling loop: their time scales with their own trip
// counts, evaluated with the call's arguments. A copy's iterations are
// counted as if the call ran once per iteration of the calling loop; its
// costs are scaled by the share of those iterations that made the call in
// the profiled run (the callee loop's entries over the calling loop's
// iterations), which covers calls under a branch.
func (o *Oracle) iterationCosts(root *loopnest.Loop, inline bool) (map[*loopnest.Loop]float64, error) {
	timed := func(c *loopnest.Loop) bool {
		p, ok := o.region(c.ID)
		return ok && p.Timed
	}
	share := map[*loopnest.Loop]float64{}
	var shares func(l *loopnest.Loop, s float64)
	shares = func(l *loopnest.Loop, s float64) {
		share[l] = s
		for _, c := range l.Inner {
			shares(c, s)
		}
		if inline {
			for _, c := range l.Callees {
				shares(c, s*o.callShare(c))
			}
		}
	}
	shares(root, 1)
	costs := map[*loopnest.Loop]float64{}
	var firstErr error
	walk := root.Walk
	if inline {
		walk = root.WalkAll
	}
	walk(func(l *loopnest.Loop) {
		pr, ok := o.region(l.ID)
		if !ok || !pr.Timed {
			return
		}
		nearest := nearestTimed(l, timed, inline)
		ids := make([]string, len(nearest))
		for i, d := range nearest {
			ids[i] = d.ID
		}
		// l's time less its nearest timed loops', the probes taken out.
		own, _ := o.zones.exclusiveOwn(l.ID, ids)
		excl := own * 1e-9
		leaves := countedLeaves(l, timed, inline)
		// A leaf in a callee copy counts the callee's iterations from
		// every call site, where l's time holds those of its own: a
		// kernel too short to time, called from a main loop and from a
		// serial check, charged each half its time
		// (docs/validation/outside-2026-11-29p, fault 3).
		var total, all float64
		for _, lf := range leaves {
			if p, ok := o.region(lf.ID); ok {
				total += float64(p.Iters) * o.sitesFraction(lf, l)
				all += float64(p.Iters)
			}
		}
		if total == 0 {
			total = all // the call statements made none of the calls counted
		}
		if total == 0 {
			if firstErr == nil && excl > 0 {
				// l's time goes to its innermost counted loops, which
				// may be others than l (a loop the profile ran 1024
				// times whose inner loop never ran).
				names := make([]string, len(leaves))
				for i, lf := range leaves {
					names[i] = lf.ID
					if _, ok := o.region(lf.ID); !ok {
						names[i] += " (not in the profile)"
					}
				}
				switch {
				case len(leaves) == 0:
					// A timed loop with no count, nor any counted loop
					// inside (an exit test on what the loop computes).
					firstErr = fmt.Errorf("the time of %s has no loop with a trip count to go to", l.ID)
				case len(leaves) == 1 && leaves[0] == l:
					firstErr = fmt.Errorf("the profile counted no iterations of %s", names[0])
				default:
					firstErr = fmt.Errorf("the profile counted no iterations of %s, where the time of %s goes", strings.Join(names, ", "), l.ID)
				}
			}
			return
		}
		for _, lf := range leaves {
			costs[lf] += excl / total * share[lf]
		}
	})
	// A nest with no timed loop was too cheap to time: its time is part of
	// the own time of the enclosing timed region, charged there.
	return costs, firstErr
}

// callShare is, for the root of a callee copy, the profiled entries of
// the callee loop per iteration of the loop that calls it (1 when the
// profile cannot tell). A callee called from several statements (a
// kernel the program's serial check calls too) had its entries from all
// of them: this one's share of them is its share of the calls.
func (o *Oracle) callShare(c *loopnest.Loop) float64 {
	if c.Inlined == nil || c.Inlined.In == nil {
		return 1
	}
	callee, ok := o.region(c.ID)
	caller, ok2 := o.region(c.Inlined.In.ID)
	if !ok || !ok2 || caller.Iters == 0 {
		return 1
	}
	f, ok := o.siteFraction(c)
	if !ok {
		return 1
	}
	return float64(callee.Execs) * f / float64(caller.Iters)
}

// siteFraction is, for the root of a callee copy, the share of the
// callee's profiled calls that its call statement made: 1 for a callee
// called from one statement; false when the profile cannot tell.
func (o *Oracle) siteFraction(c *loopnest.Loop) (float64, bool) {
	ids := o.zones.sites[c.Inlined.Callee.String()]
	if len(ids) <= 1 {
		return 1, true
	}
	site, ok := o.callSite(c.Inlined.Call, true)
	if !ok {
		return 0, false
	}
	var calls int64
	for _, id := range ids {
		if r, ok := o.zones.prof.Region(id); ok && r.Ranks == site.Ranks {
			calls += r.Execs
		}
	}
	if calls <= 0 {
		return 0, false
	}
	return float64(site.Execs) / float64(calls), true
}

// sitesFraction is the share of lf's profiled iterations that ran under
// the call statements between lf and the loop l around it: the product
// of siteFraction over the calls crossed on the way up (a copy's root,
// whose parent is the calling loop; 1 where the profile cannot tell).
// None is crossed where l is in lf's copy (the callee's timed loop, whose
// time, like lf's count, is that of every call statement).
func (o *Oracle) sitesFraction(lf, l *loopnest.Loop) float64 {
	f := 1.0
	for c := lf; c != nil && c != l; c = c.Parent {
		if c.Inlined == nil || c.Parent != nil && c.Parent.Inlined == c.Inlined {
			continue
		}
		if s, ok := o.siteFraction(c); ok {
			f *= s
		}
	}
	return f
}

// nearestTimed are the timed loops inside l with no timed loop between.
func nearestTimed(l *loopnest.Loop, timed func(*loopnest.Loop) bool, inline bool) []*loopnest.Loop {
	var out []*loopnest.Loop
	for _, c := range l.Children(inline) {
		if timed(c) {
			out = append(out, c)
		} else {
			out = append(out, nearestTimed(c, timed, inline)...)
		}
	}
	return out
}

// countedLeaves are the counted loops of l's subtree reached through loops
// that are not timed on their own, that have no counted child of that kind.
func countedLeaves(l *loopnest.Loop, timed func(*loopnest.Loop) bool, inline bool) []*loopnest.Loop {
	var out []*loopnest.Loop
	for _, c := range l.Children(inline) {
		if c.Trip == nil || timed(c) {
			continue
		}
		out = append(out, countedLeaves(c, timed, inline)...)
	}
	if len(out) == 0 && l.Trip != nil {
		out = append(out, l)
	}
	return out
}

// iterationTimes costs an unbalanced root loop iteration by iteration from
// the profile's per-iteration times, when the iterations the rank runs
// are ones the profile measured (the same problem size). The vector is
// a mean over the loop's entries, so it is a shape, not an entry's
// magnitude where entries differ in their inner loops (an update of a
// block's interior and one of its edge column, over the same rows). It
// returns nil for balanced loops that deal out blocks of iterations: the
// balance test smooths the times over a few neighbouring iterations
// (docs/profiler.md), which is right for blocks, but a loop that steps by
// more than one (rows y, y+size, ...) gives a rank every other iteration,
// and iterations that alternate cheap and dear are then as unbalanced as
// they come.
func (o *Oracle) iterationTimes(root *loopnest.Loop) func(symbolic.Env) (vectorCost, bool) {
	pr, ok := o.region(root.ID)
	if !ok || pr.Imbalance == nil || len(pr.Imbalance.IterNs) == 0 ||
		root.Counter == nil || (root.Counter.Step == 0 && root.Counter.StepExpr == nil) || root.First == nil || root.Trip == nil {
		return nil
	}
	if pr.Imbalance.Balanced && root.Counter.Step == 1 {
		return nil
	}
	// The profiled times are indexed by the counter's values in the
	// profiled run. They identify iterations if the counter is the global
	// index (it starts where the rank's share starts, as in
	// `for y := lo; y < hi; y++`). A counter that starts at the same
	// constant on every rank (k over a rank's rows) does not; the row the
	// body computes from it (y := first + k*stride) does, and in a profile
	// made with one rank (first 0, stride 1) it equals the counter.
	index := func(_ symbolic.Env, c int64) (int64, error) { return c, nil }
	if o.prof.Meta.NP != 1 {
		// The vector is of a rank's iteration ordinals, which are
		// counter values only in a run of one rank.
		return nil
	}
	if _, err := root.First.Eval(symbolic.Names{}); err == nil {
		if root.Index == nil {
			return nil
		}
		index = root.Index.At
	}
	times := pr.Imbalance.IterNs
	if pos := growsSlice(root); pos.IsValid() {
		var spikes int
		if times, spikes = withoutGrowthSpikes(times); spikes > 0 {
			o.note(root.Func.Prog.Fset, pos, "nest %s appends to a slice that outlives an iteration: %d of the profiled run's %d iterations took over %d times their neighbours (the slice's reallocations as it grew in one rank); they are taken at their neighbours' time and the nest's time shared by what remains, as each rank pays its own slice's copies about in proportion to what it appends",
				root.ID, spikes, len(times), growthSpike)
		}
	}
	// The vector says how an entry's time is shared among its
	// iterations; what the whole entry costs is the own time of the loop
	// and of everything timed in it, per entry. Summed as they are, the
	// iterations' times would hold the probes inside them (ticks, the
	// timers of the calls they make) and, in profiles before probe
	// revision 9, be each iteration's fastest over the entries, below
	// their mean: a loop costed from its vector at the profile's size and
	// from its own times at another would not scale by the work.
	sum := 0.0
	for _, t := range times {
		sum += t
	}
	own, ok := o.zones.exclusiveOwn(root.ID, nil)
	if !ok || own <= 0 || sum <= 0 || pr.Execs <= 0 {
		return nil
	}
	scale := own / float64(pr.Execs) / sum
	mean := sum / float64(len(times))
	fine := fineResidues{times: times}
	return func(env symbolic.Env) (vectorCost, bool) {
		first, err := root.First.Eval(env)
		if err != nil {
			return vectorCost{}, false
		}
		// A cyclic distribution (k += size) steps by its expression.
		step := root.Counter.Step
		if step == 0 {
			if step, err = root.Counter.StepExpr.Eval(env); err != nil {
				return vectorCost{}, false
			}
		}
		n, err := root.Trip.Eval(env)
		if err != nil {
			return vectorCost{}, false
		}
		if pr.Imbalance.Fine && step > 1 && !fine.unbalanced(step) {
			return vectorCost{}, false
		}
		if n <= 0 {
			return vectorCost{}, false
		}
		t := 0.0
		for k := range n {
			i, err := index(env, first+k*step)
			if err != nil || i < 0 || i >= int64(len(times)) {
				return vectorCost{}, false
			}
			t += times[i]
		}
		return vectorCost{time: t * 1e-9 * scale, share: t / (float64(n) * mean)}, true
	}
}

// vectorCost is what an unbalanced loop's per-iteration vector says of
// an entry's iterations: their time, as the profile's entries shared
// the loop's time among their iterations, and their share, how many
// mean iterations of the vector they are worth. The share scales the
// nest's counted time, which follows the entry's inner loops; the time
// stands in where those cannot be counted.
type vectorCost struct {
	time, share float64
}

// fineNoise is how far above the mean the dearest class of a fine
// vector's iterations dealt out cyclically must be for the vector to
// cost them: a vector of iterations a fraction of a microsecond each,
// timed one after another in one run, also holds what an iteration costs
// after the one before (lines parsed by strings.Fields: every other one
// 13 % dearer in a profile, an allocator's cadence, not the lines; each
// rank parses its own lines at its own cadence). Trial division of
// candidates dealt out to two ranks puts nearly all the work on one.
const fineNoise = 0.2

// fineResidues says, per step of a cyclic distribution, whether a fine
// vector's iterations are unbalanced among the classes of their ordinals
// modulo the step (each a rank's share when the counter is the ordinal),
// computed once per step; the simulations of a sweep ask concurrently.
type fineResidues struct {
	times []float64
	mu    sync.Mutex
	known map[int64]bool
}

func (f *fineResidues) unbalanced(step int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u, ok := f.known[step]; ok {
		return u
	}
	sums := make([]float64, min(step, int64(len(f.times))))
	for i, t := range f.times {
		sums[int64(i)%step] += t
	}
	total, most := 0.0, 0.0
	for _, s := range sums {
		total += s
		most = max(most, s)
	}
	u := len(sums) > 0 && total > 0 && most > (1+fineNoise)*total/float64(len(sums))
	if f.known == nil {
		f.known = map[int64]bool{}
	}
	f.known[step] = u
	return u
}

// writes finds the memory the nest's stores, and the calls it makes, may
// reach: values defined outside the nest whose memory it may write, and
// paths from such values through fields and pointers the nest does not
// change (interpreter.MemPath), so that writing the rows of g.a leaves g
// itself known.
func writes(blocks []*ssa.BasicBlock, in map[*ssa.BasicBlock]bool, grown map[*ssa.Store]bool, readOnly func(*ssa.Function) bool, callees func(*ssa.CallCommon) []*ssa.Function) ([]ssa.Value, []interpreter.MemPath) {
	// A grown slice's new header is the growth's business: paths may
	// still load the old one.
	w := newWriteFinder(blocks, in, grown)
	w.readOnly, w.callees = readOnly, callees
	// The fields the nest's calls store to may change a path's pointers
	// too (storedTo).
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() != nil {
				if effects, ok := w.fieldWrites(call.Common().StaticCallee()); ok {
					for _, e := range effects {
						if e.slot {
							w.storeFields = append(w.storeFields, e.addr)
						}
					}
				}
			}
		}
	}
	// Stores to a field of a struct known before the nest write that
	// field's cell alone (fieldSlot); an append stored back where its
	// slice was loaded from (d.ps = append(d.ps, q)) writes only past
	// the old length, which the cell's new value covers.
	slots := map[*ssa.Store]bool{}
	slotAppends := map[ssa.CallInstruction]bool{}
	for _, st := range w.stores {
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if grown[st] || !ok || !w.fieldSlot(fa, st.Val.Type()) {
			continue
		}
		slots[st] = true
		w.slotAddrs = append(w.slotAddrs, fa)
		if call, _, ok := appendBack(st); ok {
			slotAppends[call] = true
		}
	}
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if grown[x] {
					continue // an append the interpreter lengthens (growths)
				}
				if slots[x] {
					continue
				}
				w.memory(x.Addr, false, 0)
			case *ssa.MapUpdate:
				w.add(x.Map, 0)
			case ssa.CallInstruction:
				if b, ok := x.Common().Value.(*ssa.Builtin); ok && readOnlyBuiltin[b.Name()] || slotAppends[x] {
					continue
				}
				if callee := x.Common().StaticCallee(); callee != nil && readOnly != nil && readOnly(callee) {
					continue // computes only: its pointer arguments are read
				}
				if w.calleeFieldWrites(x) {
					continue // writes fields of what its arguments point to
				}
				if c := x.Common(); !isFunction(c.Value) && !w.calleesStoreNothing(c) && !w.writesArgsOnly(c.Value) {
					// A method may write through its receiver, a closure
					// its free variables.
					w.add(c.Value, 0)
				}
				for _, a := range x.Common().Args {
					switch a.Type().Underlying().(type) {
					case *types.Pointer, *types.Slice:
						// What the callee may write is what the
						// argument points into.
						w.memory(a, false, 0)
					default:
						if loopnest.MayReachMemory(a.Type()) {
							w.add(a, 0)
						}
					}
				}
			}
		}
	}
	return w.out, w.through
}

// appendBack reports whether st stores append(x, ...) back where x was
// loaded from (d.ps = append(d.ps, q)), with the call and the load.
func appendBack(st *ssa.Store) (*ssa.Call, *ssa.UnOp, bool) {
	call, ok := appendCall(st.Val)
	if !ok || len(call.Call.Args) != 2 {
		return nil, nil, false
	}
	old, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || old.Op != token.MUL || !sameAddr(old.X, st.Addr) {
		return nil, nil, false
	}
	return call, old, true
}

// appendCall is v as a call of the builtin append, if it is one.
func appendCall(v ssa.Value) (*ssa.Call, bool) {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) == 0 {
		return nil, false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return call, ok && b.Name() == "append"
}

// growths finds the appends of the nest that it can summarise: a store of
// append(x, one element) to the very place x was loaded from, a struct
// field or a variable reached from a value known before the nest, made
// once in every iteration of the innermost loop holding it, and the only
// store there. After an entry each slice is longer by its loop's
// iterations (interpreter.Growth; counts gives them all from one count
// of the nest); the stores are left out of the nest's writes.
func growths(root *loopnest.Loop, blocks []*ssa.BasicBlock, in map[*ssa.BasicBlock]bool) (grows []interpreter.Growth, counts func(interpreter.Binder) ([]int64, error), grown map[*ssa.Store]bool) {
	w := newWriteFinder(blocks, in, nil)
	var loops []*loopnest.Loop // per growth, the loop whose iterations it counts
	grown = map[*ssa.Store]bool{}
	for _, st := range w.stores {
		call, old, ok := appendBack(st)
		if !ok || appendedElems(call.Call.Args[1]) != 1 {
			continue
		}
		others := 0
		for _, s2 := range w.stores {
			if s2 != st && sameAddr(s2.Addr, st.Addr) {
				others++
			}
		}
		if others > 0 {
			continue
		}
		g := interpreter.Growth{Field: -1, Elem: old.Type().Underlying().(*types.Slice).Elem()}
		var holder ssa.Value // the pointer to the struct or variable
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
			g.Field, holder = fa.Field, fa.X
		} else {
			holder = st.Addr
		}
		switch {
		case !w.inNest(holder):
			g.Base = holder
		default:
			ld, ok := holder.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL {
				continue
			}
			base, steps, ok := w.path(ld.X, 0)
			if !ok {
				continue
			}
			g.Base, g.Steps = base, steps
		}
		loop := innermost(root, st.Block())
		if loop == nil || !everyIteration(loop, st.Block()) {
			continue
		}
		grows = append(grows, g)
		loops = append(loops, loop)
		grown[st] = true
	}
	if len(grows) == 0 {
		return nil, nil, grown
	}
	counts = func(bind interpreter.Binder) ([]int64, error) {
		iters, err := loopnest.IterationsOwn(root, binderEnv{bind})
		if err != nil {
			return nil, err
		}
		n := make([]int64, len(loops))
		for i, l := range loops {
			n[i] = iters[l]
		}
		return n, nil
	}
	return grows, counts, grown
}

// sameAddr reports whether a and b are the same place: the same value, or
// the same field of the same struct pointer.
func sameAddr(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.Field == fb.Field && fa.X == fb.X
}

// appendedElems is the number of elements the variadic slice of an append
// holds when go/ssa built it from listed elements (a slice of a new
// array), else -1.
func appendedElems(v ssa.Value) int64 {
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil {
		return -1
	}
	a, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return -1
	}
	arr, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return -1
	}
	return arr.Len()
}

// innermost is the loop of root's nest that holds b most closely.
func innermost(root *loopnest.Loop, b *ssa.BasicBlock) *loopnest.Loop {
	var best *loopnest.Loop
	root.Walk(func(l *loopnest.Loop) {
		if l.Contains(b) && (best == nil || l.Depth > best.Depth) {
			best = l
		}
	})
	return best
}

// everyIteration reports whether b runs once in every iteration of l: it
// dominates every block of l that jumps back to the header, and is in no
// loop inside l.
func everyIteration(l *loopnest.Loop, b *ssa.BasicBlock) bool {
	for _, c := range l.Inner {
		if c.Contains(b) {
			return false
		}
	}
	latches := 0
	for _, p := range l.Header.Preds {
		if l.Contains(p) {
			latches++
			if !b.Dominates(p) {
				return false
			}
		}
	}
	return latches > 0
}

// dynamicCallees are the functions a call through an interface or a
// function value may run, as the loop analysis resolves them; nil when
// it cannot tell.
func (o *Oracle) dynamicCallees(c *ssa.CallCommon) []*ssa.Function {
	if o.lp == nil {
		return nil
	}
	return o.lp.DynamicCallees(c)
}

// storesNothing reports whether a call of fn writes no memory.
func (o *Oracle) storesNothing(fn *ssa.Function) bool {
	return o.lp != nil && o.lp.StoresNothing(fn)
}

// readOnlyBuiltin are the builtins that write nothing through their
// arguments.
var readOnlyBuiltin = map[string]bool{"len": true, "cap": true, "min": true, "max": true,
	"real": true, "imag": true, "complex": true, "print": true, "println": true}

type writeFinder struct {
	// readOnly tells the program functions that write no memory; nil:
	// none known.
	readOnly func(*ssa.Function) bool
	// callees are the functions a dynamic call may run (nil: not
	// known).
	callees     func(*ssa.CallCommon) []*ssa.Function
	in          map[*ssa.BasicBlock]bool
	stores      []*ssa.Store     // the nest's stores
	storeFields []ssa.Value      // the addresses of those that can change a path's pointers
	slotAddrs   []*ssa.FieldAddr // the fields stored as slots (fieldSlot)
	seen        map[ssa.Value]bool
	out         []ssa.Value
	through     []interpreter.MemPath
	paths       map[pathKey]bool
	effects     map[*ssa.Function]fieldSummary // fieldWrites, per callee
}

// fieldSummary is what fieldWrites found about a function.
type fieldSummary struct {
	effects []fieldEffect
	ok      bool
}

// calleesStoreNothing reports whether every function the dynamic call c
// may run is known and writes no memory: a closure that only reads what
// it captured (the size of the buffers a constructor makes) leaves the
// captured variables known, where any call of a closure counted as
// writing them.
func (w *writeFinder) calleesStoreNothing(c *ssa.CallCommon) bool {
	if w.callees == nil || w.readOnly == nil {
		return false
	}
	fns := w.callees(c)
	for _, fn := range fns {
		if !w.readOnly(fn) {
			return false
		}
	}
	return len(fns) > 0
}

func isFunction(v ssa.Value) bool {
	_, ok := v.(*ssa.Function)
	return ok
}

// writesArgsOnly reports whether v is a closure made by the program
// (update := func(r []float64) { ... r[j] -= l * f.piv[j] }) that stores
// only into memory its arguments reach, which the call's arguments stand
// for: what it captures (f, whose communicator the next MPI call needs)
// is then only read.
func (w *writeFinder) writesArgsOnly(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	return ok && storesIntoParamsOnly(fn, w.readOnly)
}

// storesIntoParamsOnly reports whether fn's only writes are stores into
// memory reached from its parameters by indexing and field addresses, or
// into its own stack variables, and its calls are of builtins that write
// nothing or only there, or of functions readOnly says write nothing.
func storesIntoParamsOnly(fn *ssa.Function, readOnly func(*ssa.Function) bool) bool {
	ownOrParam := func(addr ssa.Value) bool {
		switch a := loopnest.AddrRoot(addr).(type) {
		case *ssa.Parameter:
			return true
		case *ssa.Alloc:
			return !a.Heap
		}
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if !ownOrParam(in.Addr) {
					return false
				}
			case *ssa.MapUpdate, *ssa.Send, *ssa.Go, *ssa.Defer, *ssa.MakeClosure:
				return false
			case ssa.CallInstruction:
				c := in.Common()
				if bi, ok := c.Value.(*ssa.Builtin); ok {
					switch bi.Name() {
					case "copy", "append", "clear":
						if len(c.Args) == 0 || !ownOrParam(c.Args[0]) {
							return false
						}
					case "len", "cap", "min", "max", "real", "imag", "complex":
					default:
						return false
					}
					continue
				}
				if callee := c.StaticCallee(); callee == nil || readOnly == nil || !readOnly(callee) {
					return false
				}
			}
		}
	}
	return true
}

// newWriteFinder collects the stores of the nest's blocks; those in
// skip do not count as changing the pointers along a path.
func newWriteFinder(blocks []*ssa.BasicBlock, in map[*ssa.BasicBlock]bool, skip map[*ssa.Store]bool) *writeFinder {
	w := &writeFinder{in: in, seen: map[ssa.Value]bool{}, paths: map[pathKey]bool{}}
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				w.stores = append(w.stores, st)
				if !skip[st] {
					w.storeFields = append(w.storeFields, st.Addr)
				}
			}
		}
	}
	return w
}

type pathKey struct {
	base  ssa.Value
	steps string
	elems bool
	slot  string
}

func (w *writeFinder) inNest(v ssa.Value) bool {
	instr, ok := v.(ssa.Instruction)
	return ok && instr.Block() != nil && w.in[instr.Block()]
}

// add records that the memory v may point to is written, walking back
// through the operands of values the nest computes.
func (w *writeFinder) add(v ssa.Value, depth int) {
	if v == nil || w.seen[v] || depth > 32 {
		return
	}
	w.seen[v] = true
	if instr, ok := v.(ssa.Instruction); ok && w.inNest(v) {
		// Defined inside the nest: the memory is reached through its
		// operands.
		var rands []*ssa.Value
		for _, r := range instr.Operands(rands) {
			if *r != nil {
				w.add(*r, depth+1)
			}
		}
		return
	}
	switch v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Builtin:
		return
	}
	w.out = append(w.out, v)
}

// memory records that the memory addr points into is written (with
// elems: the memory each element of it points to), as a path from a value
// defined before the nest when the nest does not change the pointers on
// the way, else as add does.
func (w *writeFinder) memory(addr ssa.Value, elems bool, depth int) {
	if depth > 16 {
		w.add(addr, 0)
		return
	}
	if !w.inNest(addr) {
		switch addr.(type) {
		case *ssa.Const, *ssa.Function, *ssa.Builtin:
			return
		}
		if !elems {
			w.add(addr, 0)
			return
		}
		w.record(interpreter.MemPath{Base: addr, Elems: true})
		return
	}
	switch a := addr.(type) {
	case *ssa.IndexAddr:
		w.memory(a.X, elems, depth+1)
	case *ssa.FieldAddr:
		w.memory(a.X, elems, depth+1)
	case *ssa.Slice:
		w.memory(a.X, elems, depth+1)
	case *ssa.UnOp:
		if a.Op != token.MUL {
			w.add(addr, 0)
			return
		}
		// A field the nest stores as a slot (m.col = edges(v, m.col)):
		// forgetting the cell forgets what its value at the nest's entry
		// points to, and what the nest makes is reached through the cell.
		if fa, ok := a.X.(*ssa.FieldAddr); ok && !elems && slices.ContainsFunc(w.slotAddrs, func(s *ssa.FieldAddr) bool { return sameAddr(s, fa) }) {
			return
		}
		// A pointer or slice loaded in the nest: from an element of a
		// slice (a row of a 2-D slice), or along a path of fields.
		if ix, ok := a.X.(*ssa.IndexAddr); ok && !elems {
			// An element of an array held in memory (g.tmp[k], tmp
			// a [4][]float64 field): what the array's elements point
			// to, not all that the struct holding it reaches (its
			// sizes).
			if loopnest.IsArrayPointer(ix.X.Type()) {
				if base, steps, ok := w.path(ix.X, depth+1); ok {
					w.record(interpreter.MemPath{Base: base, Steps: steps, Elems: true})
					return
				}
			}
			w.memory(ix.X, true, depth+1)
			return
		}
		if base, steps, ok := w.path(a.X, depth); ok {
			w.record(interpreter.MemPath{Base: base, Steps: steps, Elems: elems})
			return
		}
		w.add(addr, 0)
	case *ssa.Call:
		// A slice a method that only computes returns (g.row(k), which
		// is g.v[k*g.w:(k+1)*g.w]): written where that slice points,
		// reached from the call's argument, so that the rest of what
		// the argument points to (g's sizes) stays known.
		arg, steps, ok := w.accessor(a)
		if !ok {
			w.add(addr, 0)
			return
		}
		if len(steps) == 0 {
			w.memory(arg, elems, depth+1)
			return
		}
		base, pre := arg, []interpreter.MemRead(nil)
		if w.inNest(arg) {
			ld, isLoad := arg.(*ssa.UnOp)
			if !isLoad || ld.Op != token.MUL {
				w.add(addr, 0)
				return
			}
			if base, pre, ok = w.path(ld.X, depth+1); !ok {
				w.add(addr, 0)
				return
			}
		}
		w.record(interpreter.MemPath{Base: base, Steps: append(slices.Clip(pre), steps...), Elems: elems})
	default:
		w.add(addr, 0)
	}
}

// fieldSlot records a store to field fa of a struct the nest reaches from
// a value known before it (d.ps = append(d.ps, q), d a pointer the nest
// is given) as that field's cell written, a value of type t, so that the
// struct's other fields stay known; false when the struct is not reached
// so (memory then takes the store).
func (w *writeFinder) fieldSlot(fa *ssa.FieldAddr, t types.Type) bool {
	if !w.inNest(fa) {
		return false
	}
	base, pre, ok := w.reachedFrom(fa.X)
	if !ok {
		return false
	}
	w.record(interpreter.MemPath{Base: base, Steps: append(slices.Clip(pre), interpreter.MemRead{Field: fa.Field}), Slot: t})
	return true
}

// reachedFrom is the value defined before the nest and the loads of
// fields and pointers from it that give v, a pointer to a struct (v
// itself when the nest does not compute it); false when a store of the
// nest may change a pointer on the way, or v is a constant or function.
func (w *writeFinder) reachedFrom(v ssa.Value) (ssa.Value, []interpreter.MemRead, bool) {
	base, pre := v, []interpreter.MemRead(nil)
	if w.inNest(v) {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return nil, nil, false
		}
		if base, pre, ok = w.path(ld.X, 1); !ok {
			return nil, nil, false
		}
	}
	switch base.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Builtin:
		return nil, nil, false
	}
	return base, pre, true
}

// accessor follows a call of a program function that writes nothing and
// returns a slice of what one of its parameters points to (a method
// g.row(k) returning g.v[k*g.w:(k+1)*g.w], or s[lo:hi] of a slice
// parameter) back to the call's argument for that parameter, with the
// fields loaded on the way: the result shares its elements with the slice
// at the end of that path. ok is false for anything else, or when a store
// of the nest may change a pointer on the way.
func (w *writeFinder) accessor(call *ssa.Call) (ssa.Value, []interpreter.MemRead, bool) {
	f := call.Call.StaticCallee()
	if f == nil || w.readOnly == nil || !w.readOnly(f) {
		return nil, nil, false
	}
	var steps []interpreter.MemRead
	for v := loopnest.SingleResult(f); v != nil; {
		switch x := v.(type) {
		case *ssa.Slice:
			v = x.X
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if x.Op != token.MUL || !ok || w.storedTo(fa) {
				return nil, nil, false
			}
			steps = append([]interpreter.MemRead{{Field: fa.Field}}, steps...)
			v = fa.X
		case *ssa.Parameter:
			i := slices.Index(f.Params, x)
			if i < 0 || i >= len(call.Call.Args) {
				return nil, nil, false
			}
			return call.Call.Args[i], steps, true
		default:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// path follows the value held at addr (what a load from it reads) back to
// a value defined before the nest through loads of struct fields and of
// pointers that no store of the nest can change.
func (w *writeFinder) path(addr ssa.Value, depth int) (ssa.Value, []interpreter.MemRead, bool) {
	if depth > 16 || w.storedTo(addr) {
		return nil, nil, false
	}
	deref := []interpreter.MemRead{{Field: interpreter.FieldDeref}}
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if !w.inNest(a) {
			return a, deref, true
		}
		if !w.inNest(a.X) {
			return a.X, []interpreter.MemRead{{Field: a.Field}}, true
		}
		if ld, ok := a.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
			base, steps, ok := w.path(ld.X, depth+1)
			if !ok {
				return nil, nil, false
			}
			return base, append(steps, interpreter.MemRead{Field: a.Field}), true
		}
	default:
		if !w.inNest(a) {
			return a, deref, true
		}
	}
	return nil, nil, false
}

// storedTo reports whether a store of the nest may write the pointer at
// addr: a store to the same address, or to the same field of a struct of
// the same type, or any other store through a pointer of the same type.
func (w *writeFinder) storedTo(addr ssa.Value) bool {
	fa, isField := addr.(*ssa.FieldAddr)
	for _, s := range w.storeFields {
		if s == addr {
			return true
		}
		if sf, ok := s.(*ssa.FieldAddr); ok && isField {
			if sf.Field == fa.Field && types.Identical(sf.X.Type(), fa.X.Type()) {
				return true
			}
			continue
		}
		if _, ok := s.(*ssa.IndexAddr); ok && isField {
			// An element of an array or slice is no struct's field
			// (s.out[o] = ... does not write s.dist).
			continue
		}
		if types.Identical(s.Type(), addr.Type()) {
			return true
		}
	}
	return false
}

// record adds p once.
func (w *writeFinder) record(p interpreter.MemPath) {
	key := pathKey{p.Base, fmt.Sprint(p.Steps), p.Elems, fmt.Sprint(p.Slot)}
	if w.paths[key] {
		return
	}
	w.paths[key] = true
	w.through = append(w.through, p)
}

// guardCertain is how near 1 the profiled frequency of a guard's arm
// must be for the guard to be trusted.
const guardCertain = 0.999

// trustGuard reports whether the profiled run went the guarded way every
// time it tested g (a cyclic distribution's test at one rank): then the
// profile's costs are those of iterations that do the guarded work, and
// counting only the iterations where g holds at another rank count is
// right. A guard the profiled run also failed (a profile at two ranks, a
// test on data as well) is not trusted: the profile's per-iteration costs
// already hold its frequency.
func (o *Oracle) trustGuard(g *loopnest.Guard) bool {
	b, arm := g.Branch()
	p, ok := o.ranBranch[b]
	if !ok {
		return false
	}
	if arm == 1 {
		p = 1 - p
	}
	return p >= guardCertain
}

// guarded reports whether a loop of the nest runs only where a trusted
// guard on the rank or rank count holds: the nest's work is then divided
// among the ranks as a distributed loop's is.
func (o *Oracle) guarded(root *loopnest.Loop) bool {
	found := false
	root.WalkAll(func(l *loopnest.Loop) {
		for i := range l.Guards {
			found = found || o.trustGuard(&l.Guards[i])
		}
	})
	return found
}

// fieldEffect is a write a function makes through one of its pointer
// parameters: to field field of the struct it points to (slot: a value
// of type typ in that field's cell), or into what the slice in that field
// points to.
type fieldEffect struct {
	param, field int
	slot         bool
	typ          types.Type
	addr         *ssa.FieldAddr
}

// fieldWrites summarises what fn writes when all it writes is fields of
// the structs its pointer parameters point to (s.next = append(s.next,
// v)) and the elements of slices held in such fields (b.next[k] = v):
// ok is false for any other store, a call that may write, a closure.
func (w *writeFinder) fieldWrites(fn *ssa.Function) ([]fieldEffect, bool) {
	if sum, ok := w.effects[fn]; ok {
		return sum.effects, sum.ok
	}
	effects, ok := w.summarise(fn)
	if w.effects == nil {
		w.effects = map[*ssa.Function]fieldSummary{}
	}
	w.effects[fn] = fieldSummary{effects, ok}
	return effects, ok
}

// summarise is fieldWrites, computed.
func (w *writeFinder) summarise(fn *ssa.Function) (effects []fieldEffect, ok bool) {
	if len(fn.Blocks) == 0 || len(fn.FreeVars) > 0 || w.readOnly == nil {
		return nil, false
	}
	paramField := func(v ssa.Value) (int, *ssa.FieldAddr) {
		fa, isField := v.(*ssa.FieldAddr)
		if !isField {
			return -1, nil
		}
		p, isParam := fa.X.(*ssa.Parameter)
		if !isParam {
			return -1, nil
		}
		return slices.Index(fn.Params, p), fa
	}
	// The slice in a parameter's field: loaded from it.
	sliceField := func(v ssa.Value) (int, *ssa.FieldAddr) {
		if ld, isLoad := v.(*ssa.UnOp); isLoad && ld.Op == token.MUL {
			if _, isSlice := ld.Type().Underlying().(*types.Slice); isSlice {
				return paramField(ld.X)
			}
		}
		return -1, nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if i, fa := paramField(x.Addr); i >= 0 {
					effects = append(effects, fieldEffect{param: i, field: fa.Field, slot: true, typ: x.Val.Type(), addr: fa})
					continue
				}
				if ia, isIndex := x.Addr.(*ssa.IndexAddr); isIndex {
					if i, fa := sliceField(ia.X); i >= 0 {
						effects = append(effects, fieldEffect{param: i, field: fa.Field, addr: fa})
						continue
					}
				}
				if a, isAlloc := loopnest.AddrRoot(x.Addr).(*ssa.Alloc); isAlloc && a.Parent() == fn {
					continue // memory the call makes (a variable, append's arguments)
				}
				return nil, false
			case *ssa.Call:
				c := x.Common()
				if bi, isBuiltin := c.Value.(*ssa.Builtin); isBuiltin {
					switch {
					case readOnlyBuiltin[bi.Name()]:
					case bi.Name() == "append" && appendedBack(x):
						// Past the old length, which the field's new
						// value (a slot effect) covers.
					case bi.Name() == "copy":
						i, fa := sliceField(c.Args[0])
						if i < 0 {
							return nil, false
						}
						effects = append(effects, fieldEffect{param: i, field: fa.Field, addr: fa})
					default:
						return nil, false
					}
					continue
				}
				if callee := c.StaticCallee(); callee == nil || !w.readOnly(callee) {
					return nil, false
				}
			case ssa.CallInstruction, *ssa.MapUpdate, *ssa.Send:
				return nil, false
			}
		}
	}
	return effects, true
}

// appendedBack reports whether every use of the append call is a store
// back where its slice was loaded from.
func appendedBack(call *ssa.Call) bool {
	refs := call.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		st, ok := r.(*ssa.Store)
		if !ok || st.Val != call {
			return false
		}
		if c, _, ok := appendBack(st); !ok || c != call {
			return false
		}
	}
	return true
}

// calleeFieldWrites records the writes of a call whose callee writes only
// through its pointer parameters' fields (fieldWrites) as writes of those
// fields of what the arguments point to, so that the rest of the structs
// (a solver's communicator beside the slice a method appends to) stays
// known; false when the call is not of such a function or an argument's
// struct cannot be reached from a value known before the nest.
func (w *writeFinder) calleeFieldWrites(call ssa.CallInstruction) bool {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return false
	}
	effects, ok := w.fieldWrites(callee)
	if !ok {
		return false
	}
	// All or none: an argument not reached from before the nest leaves
	// the call to the general case.
	paths := make([]interpreter.MemPath, len(effects))
	for i, e := range effects {
		base, pre, ok := w.reachedFrom(call.Common().Args[e.param])
		if !ok {
			return false
		}
		paths[i] = interpreter.MemPath{Base: base, Steps: append(slices.Clip(pre), interpreter.MemRead{Field: e.field})}
		if e.slot {
			paths[i].Slot = e.typ
		}
	}
	for _, p := range paths {
		w.record(p)
	}
	return true
}
