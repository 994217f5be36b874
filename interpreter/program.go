package interpreter

import (
	"fmt"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// SSAPrograms builds the rank programs that execute a program's SSA from
// the main package's init and main, for p ranks.
type SSAPrograms struct {
	shared *programShared
	ranks  []*ssaRank
}

// NewSSAPrograms prepares p ranks executing mainPkg. oracle supplies costs,
// reductions and branch frequencies.
func NewSSAPrograms(prog *ssa.Program, mainPkg *ssa.Package, oracle Oracle, p int, opts ExecOptions) (*SSAPrograms, error) {
	mainFn := mainPkg.Func("main")
	if mainFn == nil {
		return nil, fmt.Errorf("interpreter: package %s has no main function", mainPkg.Pkg.Path())
	}
	sh := newProgramShared(prog, oracle)
	sp := &SSAPrograms{shared: sh}
	for rank := range p {
		r := &ssaRank{shared: sh, rank: rank, size: p, opts: opts,
			flags: &flagSet{}, mainPos: mainFn.Pos()}
		r.binder = rankBinder{r}
		if err := r.pushCall(mainFn, nil, nil, -1); err != nil {
			return nil, err
		}
		if init := mainPkg.Func("init"); init != nil {
			if err := r.pushCall(init, nil, nil, -1); err != nil {
				return nil, err
			}
		}
		sp.ranks = append(sp.ranks, r)
	}
	return sp, nil
}

// Programs returns the rank programs for Simulate.
func (sp *SSAPrograms) Programs() []Program {
	out := make([]Program, len(sp.ranks))
	for i, r := range sp.ranks {
		out[i] = r
	}
	return out
}

// Distributed is the compute time rank spent in reduced nests whose
// iterations are divided among the ranks.
func (sp *SSAPrograms) Distributed(rank int) float64 { return sp.ranks[rank].distributed }

// Assumptions lists, sorted, the guesses the ranks had to make.
func (sp *SSAPrograms) Assumptions() []Assumption {
	out := make([]Assumption, 0, len(sp.shared.assume))
	for a := range sp.shared.assume {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos != out[j].Pos {
			return out[i].Pos < out[j].Pos
		}
		return out[i].What < out[j].What
	})
	return out
}

// Step implements Program: it completes the previous MPI call, then runs
// the rank's SSA up to its next MPI call.
func (r *ssaRank) Step(prev Result) (compute float64, op Op, err error) {
	defer func() {
		// An invariant failure in the interpreter names the function it
		// was executing rather than crashing the whole prediction.
		if v := recover(); v != nil {
			fn := "?"
			if len(r.stack) > 0 {
				fn = r.top().fn.String()
			}
			err = fmt.Errorf("internal error while interpreting %s: %v (please report this with the program)", fn, v)
		}
	}()
	r.finishCall(prev)
	r.compute, r.soloCompute = 0, 0
	r.runLabel, r.runSum, r.topLabel, r.topSum = "", 0, "", 0
	op, err = r.run()
	if err != nil {
		return 0, Op{}, err
	}
	r.endRun()
	op.Region = r.topLabel
	return r.compute, op, nil
}
