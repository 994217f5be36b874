package prediction

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/loopnest/symbolic"
)

// inferredTime is a reduced nest's Reduction.Infer: when the nest's count
// needs one value the ranks do not know (every rank read the input from
// a file, `for i := rank; i < len(lines); i += size`), the value is taken
// as the one for which the root's count at the profiled run's rank 0 and
// rank count is the profile's mean trips per entry, found once by
// bisection (the count must grow or shrink with it), and the nest costed
// with it at this rank. Where the profile's --ppn runs counted the root's
// iterations per entry at other rank counts, the value is the one giving
// their count at the simulation's rank count (perRank), found once per
// rank count. nil without trip statistics of the root.
func (o *Oracle) inferredTime(root *loopnest.Loop, costs map[*loopnest.Loop]float64) func(interpreter.Binder) (float64, string, error) {
	pr, ok := o.region(root.ID)
	if !ok || pr.Trips == nil || pr.Execs == 0 || root.Trip == nil {
		return nil
	}
	np := max(o.prof.Meta.NP, 1)
	if pr.Ranks > 0 {
		np = pr.Ranks // numbers from a contention run (code the profiled run never reached)
	}
	target := pr.Trips.Mean
	if np > 1 && len(pr.RankTrips) > 0 {
		target = pr.RankTrips[0].Mean
	}
	type solution struct {
		u, got     int64
		what       string
		solved     bool
		np         int
		target     float64
		contention bool
		from       string // where the contention runs' count comes from
		noted      bool   // the note on the profile's arguments is made
	}
	// spread is how the runs saw the loop's count spread over the ranks,
	// per rank count: shares by rank and their text; nil shares where
	// every rank takes the ranks' mean.
	type spread struct {
		shares []float64
		text   string
	}
	type key struct{ size, rank int } // rank -1: the same for every rank
	var (
		mu      sync.Mutex
		bySize  = map[key]*solution{} // by the simulation's rank count (and rank)
		spreads = map[int]*spread{}   // by the simulation's rank count
	)
	return func(bind interpreter.Binder) (float64, string, error) {
		env := binderEnv{bind}
		if rootCounted(root, env) {
			return o.guessedInnerTime(root, env, costs)
		}
		size := int(bind.Size(nil))
		mu.Lock()
		sp, ok := spreads[size]
		if !ok {
			sp = &spread{}
			if o.contention != nil && size != np {
				if sh, k, ok := o.contention.unevenSpread(root.ID, size); ok {
					sp.shares, sp.text = sh, spreadText(sh, k)
				}
			}
			spreads[size] = sp
		}
		at := key{size, -1}
		if sp.shares != nil {
			at.rank = int(bind.Rank(nil))
		}
		sol, ok := bySize[at]
		if !ok {
			sol = &solution{np: np, target: target}
			// The profile's --ppn runs saw the loop's count per entry at
			// other rank counts (a rank's particles, a share of the
			// data it filtered by owner): the unknown is the one that
			// gives the count they say for this many ranks, on this rank
			// where they saw how the ranks' counts spread.
			rank := int64(0)
			if o.contention != nil && size != np {
				if t, from, found := o.contention.tripMeans(root.ID, size); found && t > 0 {
					sol.np, sol.target, sol.contention, sol.from = size, t, true, from
					if at.rank >= 0 && at.rank < len(sp.shares) {
						sol.target, rank = t*float64(size)*sp.shares[at.rank], int64(at.rank)
					}
				}
			}
			sol.u, sol.what, sol.got, sol.solved = solveUnknown(root.Trip, env, rank, int64(sol.np), sol.target)
			bySize[at] = sol
		}
		if sol.solved && o.otherArgs && !sol.noted {
			// Once per rank count, not per entry of the nest.
			sol.noted = true
			o.note(o.mp.Fset, root.Pos, "reduced nest %s: its count needs %s, which the rank does not know, and is taken from the profile's runs, made with the profile's arguments (%s): with these arguments it may be larger or smaller (a grid's rows, a matrix's nonzeros): profile with arguments closer to these if it matters",
				root.ID, sol.what, strings.Join(o.prof.Meta.Args, " "))
		}
		mu.Unlock()
		u, what, got, np, target := sol.u, sol.what, sol.got, sol.np, sol.target
		if !sol.solved {
			return 0, "", errors.New("prediction: no single unknown value gives the profiled count")
		}
		iters, guessed, err := o.guessedIterations(root, env, u, what)
		if err != nil {
			return 0, "", err
		}
		how := fmt.Sprintf("its count needs %s, which the rank does not know; taken as %d, which gives ", what, u)
		// An integer u gives a whole count where the profile's mean may
		// lie between two (2.5 repetitions of a kernel on average): the
		// time is scaled by what u misses.
		scale := 1.0
		missed := got > 0 && math.Abs(float64(got)-target) > 1e-9*target
		if missed {
			scale = target / float64(got)
		}
		switch {
		case at.rank >= 0 && sol.contention:
			// One text for all the ranks of a rank count.
			how = fmt.Sprintf("its count needs %s, which the rank does not know; taken rank by rank: the ranks' mean at %d ranks (%s), %s", what, np, sol.from, sp.text)
		case missed:
			how += fmt.Sprintf("%d iterations per entry at rank 0 of %d where the profiled run made %s, and the time scaled by %.4g", got, np, count(target), scale)
		case sol.contention:
			// A mean over the runs' ranks: where the data gathers on
			// some ranks (particles a field pulls to the middle slabs)
			// those take longer than every rank is charged.
			how += fmt.Sprintf("the %s iterations per entry at %d ranks (%s: the ranks' mean)", count(target), np, sol.from)
		default:
			how += fmt.Sprintf("the profiled run's %s iterations per entry at rank 0 of %d", count(target), np)
			if o.prof.Contention == nil && size != np {
				o.addNote(unknownCountHint)
			}
		}
		if guessed > 0 {
			how += fmt.Sprintf(" (%d inner loops whose counts the rank does not know at their profiled mean per entry)", guessed)
		}
		return scale * nestTime(root, iters, costs), how, nil
	}
}

// spreadText says how a loop's counts spread over the len(shares) ranks,
// from the contention run at k ranks (rankSpread).
func spreadText(shares []float64, k int) string {
	p := len(shares)
	hi, lo := 0, 0
	for r, x := range shares {
		if x > shares[hi] {
			hi = r
		}
		if x < shares[lo] {
			lo = r
		}
	}
	from := fmt.Sprintf("spread over the ranks as in the profile's run at %d ranks", k)
	if k != p {
		from += fmt.Sprintf(", its ranks' counts in rank order mapped onto %d ranks as for block-distributed data", p)
	}
	return fmt.Sprintf("%s: from %.3g times the mean at rank %d to %.3g times at rank %d", from, shares[lo]*float64(p), lo, shares[hi]*float64(p), hi)
}

// unknownCountHint is the note that goes with counts the ranks do not
// know, taken from a profile without contention runs at other rank
// counts: a rank's share of data it filtered or built itself is the
// profiled run's whole at every P, and the speedup then too low.
const unknownCountHint = "reduced nests whose counts the ranks do not know take the profiled run's count at every P (the assumptions say which): where a rank's count shrinks with more ranks (its share of rows it selected or built itself), every P computes the whole and the speedup is too low; profile with contention runs, whose counts at 2 ranks give the share (predict speedup --profile-ppn 1,2; predict validate makes them)"

// count prints a mean count: whole, or to four digits.
func count(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// stepLimit is the most iterations per entry, inner counts taken at
// their profiled means, of a nest whose inner counts need values it
// computes, that runs step by step (guessedInnerTime).
const stepLimit = 100_000

// rootCounted reports whether env gives root's count.
func rootCounted(root *loopnest.Loop, env binderEnv) bool {
	if root.Trip == nil {
		return false
	}
	e := &guessEnv{env: env, rank: -1, size: -1}
	_, err := root.Trip.Eval(e)
	return err == nil && len(e.missing) == 0
}

// guessedInnerTime costs root's nest when the rank knows root's count and
// an inner loop's count needs values the nest loads (the row lengths of a
// sparse matrix, rowptr[i+1]-rowptr[i]): such loops are taken at the
// profile's mean trips per entry. A nest of at most stepLimit iterations
// so counted is left to run step by step, which is exact where the
// values are known (mandelbrot's placeRows, a count per rank from a
// function of the rank); a larger one would take as many steps at every
// entry (a sparse product's 3.4 million per call), and guess every such
// count where the values are not known.
func (o *Oracle) guessedInnerTime(root *loopnest.Loop, env binderEnv, costs map[*loopnest.Loop]float64) (float64, string, error) {
	iters, guessed, err := o.guessedIterations(root, env, 0, "")
	if err != nil {
		return 0, "", err
	}
	total := int64(0)
	for _, n := range iters {
		total += n
	}
	if guessed == 0 || total <= stepLimit {
		return 0, "", fmt.Errorf("prediction: %d iterations, %d inner counts to guess: run it", total, guessed)
	}
	loops := "an inner loop's count needs"
	if guessed > 1 {
		loops = fmt.Sprintf("%d inner loops' counts need", guessed)
	}
	how := fmt.Sprintf("%s values the nest loads; taken at the profile's mean trips per entry, %d iterations in all, rather than running them step by step", loops, total)
	return nestTime(root, iters, costs), how, nil
}

// guessedIterations counts the iterations of root's nest as
// loopnest.IterationsOwn does, with what the root's count lacks taken as
// u, and an inner loop whose count needs a value the rank does not know
// taken at the profile's mean trips per entry (guessed counts them).
func (o *Oracle) guessedIterations(root *loopnest.Loop, env binderEnv, u int64, what string) (map[*loopnest.Loop]int64, int, error) {
	totals := map[*loopnest.Loop]int64{}
	guessed := 0
	var walk func(l *loopnest.Loop, mult int64) error
	walk = func(l *loopnest.Loop, mult int64) error {
		if l.Trip == nil {
			return nil
		}
		e := &guessEnv{env: env, rank: -1, size: -1, u: u}
		n, err := l.Trip.Eval(e)
		known := err == nil && (len(e.missing) == 0 || l == root && len(e.missing) == 1 && e.missing[0] == what)
		if !known {
			pr, ok := o.region(l.ID)
			if l == root || !ok || pr.Trips == nil {
				return fmt.Errorf("prediction: the count of %s needs values the rank does not know", l.ID)
			}
			n = int64(math.Round(pr.Trips.Mean))
			guessed++
		}
		n = max(n, 0)
		totals[l] += mult * n
		for _, c := range l.Children(false) {
			if err := walk(c, mult*n); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, 1); err != nil {
		return nil, 0, err
	}
	return totals, guessed, nil
}

// solveUnknown finds u, the value of the one thing trip needs that env
// cannot answer, for which trip at rank rank of np ranks is target (within
// 1 %, or one iteration: a mean of 2.5 gives 2 or 3), names that thing,
// and gives the count u makes there.
func solveUnknown(trip symbolic.Expr, env binderEnv, rank, np int64, target float64) (int64, string, int64, bool) {
	e := &guessEnv{env: env, rank: rank, size: np}
	f := func(u int64) (int64, bool) {
		e.u = u
		n, err := trip.Eval(e)
		return n, err == nil && len(e.missing) == 1
	}
	lo, hi := int64(0), int64(1)<<40
	flo, ok1 := f(lo)
	fhi, ok2 := f(hi)
	if !ok1 || !ok2 || flo == fhi {
		return 0, "", 0, false
	}
	up := fhi > flo
	want := int64(math.Round(target))
	for lo < hi {
		mid := lo + (hi-lo)/2
		v, ok := f(mid)
		if !ok {
			return 0, "", 0, false
		}
		if up && v < want || !up && v > want {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	got, ok := f(lo)
	if !ok || math.Abs(float64(got)-target) > max(1, 0.01*target) {
		return 0, "", 0, false
	}
	return lo, e.missing[0], got, true
}

// guessEnv answers what env answers, Rank and Size as given (negative:
// env's), and anything env cannot answer with u, noting what that was
// (missing, distinct descriptions).
type guessEnv struct {
	env        binderEnv
	rank, size int64
	u          int64
	missing    []string
}

func (e *guessEnv) Lookup(s *symbolic.Sym) (int64, bool) {
	switch {
	case s.Kind == symbolic.Rank && e.rank >= 0:
		return e.rank, true
	case s.Kind == symbolic.Size && e.size >= 0:
		return e.size, true
	}
	if v, ok := e.env.Lookup(s); ok {
		return v, true
	}
	if s.Mem != nil {
		// A count read from memory (len(s.data) through s): Eval reads
		// it only when Lookup says no, which this one never does.
		if v, err := (&symbolic.Sym{Name: s.Name, Kind: s.Kind, Mem: s.Mem}).Eval(e.env); err == nil {
			return v, true
		}
	}
	e.miss(s.Name)
	return e.u, true
}

// LookupMem implements symbolic.MemEnv.
func (e *guessEnv) LookupMem(base ssa.Value, steps []symbolic.ResolvedStep, length bool) (int64, bool) {
	if v, ok := e.env.LookupMem(base, steps, length); ok {
		return v, true
	}
	what := base.Name()
	if length {
		what = "the length of what " + what + " reaches"
	} else {
		what = "what " + what + " reaches"
	}
	e.miss(what)
	return e.u, true
}

func (e *guessEnv) miss(what string) {
	for _, m := range e.missing {
		if m == what {
			return
		}
	}
	e.missing = append(e.missing, what)
}
