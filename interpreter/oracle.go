package interpreter

import (
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// Oracle is what the rank programs learn from the model, the loop-nest
// reduction plan and the profile. Keeping it an interface lets the
// evaluator be tested with hand-made costs.
//
// Its answers must not change during a simulation: the evaluator asks
// BlockCost, Reduction and CallCost once per block, edge and call
// instruction when it first compiles a function (for every block, edge and
// call of it, executed or not), BranchTaken once per block, and keeps the
// answers.
type Oracle interface {
	// IsUser reports whether fn belongs to the analysed program, whose SSA
	// is executed; other functions are library calls.
	IsUser(fn *ssa.Function) bool
	// BlockCost is the compute time of one execution of block b.
	BlockCost(b *ssa.BasicBlock) float64
	// Reduction returns the reduced nest that the edge from -> to enters,
	// or nil. Reduced nests are not executed.
	Reduction(from, to *ssa.BasicBlock) *Reduction
	// BranchTaken is the profiled probability that the If ending b goes to
	// b.Succs[0]; ok is false if the profile has none.
	BranchTaken(b *ssa.BasicBlock) (p float64, ok bool)
	// CallCost is the time of one call at call not accounted elsewhere:
	// for a library call its whole time, for a call of a program function
	// the time the profile attributes to the call itself rather than to
	// the callee's regions.
	CallCost(call ssa.CallInstruction) float64
}

// LoopExiter is implemented by oracles that know which branches are the
// exit tests of one loop. A loop that can leave by several tests on data
// the interpreter does not know (a merge leaving when either input runs
// out) then exits at the sum of their rates: each test following its own
// frequency alone, the loop would run until the likeliest exit came due,
// twice the iterations of a merge whose two exits are as likely.
type LoopExiter interface {
	// LoopExit names the loop whose exit test ends b (one name for all
	// the tests of a loop) and says whether b.Succs[0] stays in the loop;
	// ok is false for a block that ends no exit test.
	LoopExit(b *ssa.BasicBlock) (loop string, stay0 bool, ok bool)
}

// CopyCoster is implemented by oracles that cost a call of the builtin
// copy by the elements it copies: perElem seconds per element, and
// meanElems elements for a call whose lengths the interpreter does not
// know. ok is false when the call's time is charged elsewhere (the own
// time of the region around it).
type CopyCoster interface {
	CopyCost(call ssa.CallInstruction) (perElem, meanElems float64, label string, ok bool)
}

// LibraryCoster is implemented by oracles that cost a library call by the
// lengths of its arguments (a sort of a rank's share of the data). ok is
// false for a call costed per call (CallCost).
type LibraryCoster interface {
	LibraryCost(call ssa.CallInstruction) (c LibraryCost, ok bool)
}

// LibraryCost is a library call's cost by the lengths of its arguments:
// PerUnit seconds per element of the arguments Args (indices into the
// call's arguments, slices or strings), or per n log2 n of them when NLogN
// (a sort). A call one of whose lengths the rank does not know (a buffer
// sized by received counts) costs Unknown elements when it is positive,
// the length that Why says the profile saw at this rank count, else its
// profiled time per call (CallCost).
type LibraryCost struct {
	Callee  string // as the profile names it (slices.Sort)
	PerUnit float64
	Args    []int
	NLogN   bool
	Unknown float64
	Why     string
}

// SiteDataer is implemented by oracles that know the payload every call
// of an MPI call site (a Bcast) carried in the profiled run, as package mpi
// lays it out.
type SiteDataer interface {
	SiteData(site, op string) ([]byte, bool)
}

// SiteSizer is implemented by oracles that know the mean payload of the
// MPI calls at a call site ("file.go:line") of operation op in the
// profiled run: the size of a message whose buffer the interpreter
// cannot size (built by appends of unknown data, or received counts).
type SiteSizer interface {
	SiteBytes(site, op string) (float64, bool)
}

// RegionNamer is implemented by oracles that can name the model region a
// block's or a call's cost belongs to, so that timelines label compute
// with region IDs (the region that took most of each stretch).
type RegionNamer interface {
	BlockRegion(b *ssa.BasicBlock) string
	CallRegion(call ssa.CallInstruction) string
}

// Reduction describes a reduced loop nest.
type Reduction struct {
	ID string
	// Time is the nest's modelled time given the concrete integer values
	// of the SSA values its trip counts depend on.
	Time func(bind Binder) (float64, error)
	// Blocks are the nest's blocks: values defined there become unknown.
	Blocks []*ssa.BasicBlock
	// ExitFrom -> Exit is the edge by which control leaves the nest.
	ExitFrom, Exit *ssa.BasicBlock
	// Writes are values defined outside the nest that point into memory
	// the nest may write (slices, pointers, allocations); that memory
	// becomes unknown. Globals the nest stores to are included.
	Writes []ssa.Value
	// WritesThrough is memory the nest writes that is reached from a value
	// defined before it through fields and pointers the nest does not
	// change: the slice in a struct's field (g.a[i] = ...), the rows of a
	// 2-D slice (a[i][j] = ...). That memory becomes unknown; what is on
	// the way (the struct, the row headers) stays known. A path the
	// values at the exit do not follow makes its Base's memory unknown, as
	// Writes does.
	WritesThrough []MemPath
	// Needs are the values Time may ask the binder for (see
	// loopnest.Loop.BoundValues). The evaluator keeps them in the frame up
	// to the nest's entry and answers any other value as unknown. Nil
	// means Time may ask for any value of the function: the evaluator then
	// gives each value of the function a slot of its own, which costs
	// memory traffic.
	Needs []ssa.Value
	// Grows are slices in memory the nest lengthens by appends (the
	// columns of a sparse matrix built row by row): after the nest each
	// has its old length plus its count from GrowCounts (one per Grows,
	// from the binder of the frame entering the nest), its elements
	// unknown, so that later loops still count over it.
	Grows      []Growth
	GrowCounts func(Binder) ([]int64, error)
	// PhiGrows are slices the nest lengthens in a variable (a phi of its
	// header: a filter's keep = append(keep, q)); after the nest each is
	// its value at entry plus its count from PhiGrowCounts, its elements
	// unknown.
	PhiGrows      []PhiGrowth
	PhiGrowCounts func(Binder) ([]int64, error)
	// MeanTime is the nest's profiled time per entry, charged when Time
	// fails for want of a value the rank does not know; 0: the nest is
	// run instead.
	MeanTime float64
	// IterTime is, for a GiveUp loop, its profiled time per iteration,
	// what it calls and its inner loops included: the cost of each
	// iteration left when Time cannot count them (an inner loop over a
	// slice the body cuts). 0: none.
	IterTime float64
	// Small, when set, tells at an entry whether the nest is one to run
	// rather than skip: a loop over the ranks filling a table of counts
	// and offsets, few iterations, whose values the program's next MPI
	// calls need (skipped, the nest leaves them unknown).
	Small func(Binder) bool
	// Infer, when set, is tried before MeanTime: the nest's time with the
	// one value Time lacked taken as what gives the profiled run's trip
	// count (the length of input every rank read from a file, whose
	// share each rank takes); what says which value and how, for the
	// assumption. Where Time fails on values the nest loads itself
	// (inner counts from a sparse matrix's row pointers), Infer is asked
	// too, and a large nest is costed with those counts at their
	// profiled means. An error: Infer cannot tell.
	Infer func(Binder) (t float64, what string, err error)
	// Distributed is set when the nest's iterations are divided among the
	// ranks (its trip counts depend on Rank or Size): its time is the part
	// of the program that gets faster with more ranks.
	Distributed bool
	// GiveUp, when set, makes this the Reduction of a loop that runs step
	// by step because what it computes may steer what follows (a sum
	// returned as an integer), on the loop's back edges rather than its
	// entry: once what it computes is unknown (a sum over data that
	// skipped work left unknown), running the rest would only cost the
	// simulation's time, so the iterations left are skipped as a reduced
	// nest's, costing Time's share for them.
	GiveUp *GiveUp
	// Rotation, when set, are header phis of the nest's root that only
	// trade values among themselves on its back edges (double buffers
	// swapped every iteration): skipping the nest sets each to the value
	// at entry that the trip count gives it, instead of unknown, and the
	// binder answers a question about one when every phi it can take the
	// value of entered with the same answer (both buffers as long).
	Rotation *Rotation
}

// Rotation is a reduced nest's header phis that only trade values.
type Rotation struct {
	Phis []*ssa.Phi
	// At is the index in Phis of the phi whose value at entry Phis[i]
	// holds after trips iterations.
	At func(i int, trips int64) int
	// Trips is the root loop's iterations per entry, from the values
	// before it.
	Trips func(Binder) (int64, error)
}

// GiveUp is what a back edge of a step-by-step loop (Reduction.GiveUp)
// needs to tell whether to skip the loop's remaining iterations and what
// they cost.
type GiveUp struct {
	// Results are the loop's header phis whose values leave the loop,
	// each computed from itself: once all are unknown at a back edge,
	// no later iteration can make them known.
	Results []*ssa.Phi
	// Counter is the header phi that counts the iterations: it starts
	// from Init (a value defined before the loop, kept in the Needs) and
	// moves by Step per iteration.
	Counter *ssa.Phi
	Init    ssa.Value
	Step    int64
	// Trips is the loop's iterations per entry, from the values before
	// the loop.
	Trips func(Binder) (int64, error)
	// Joined, per result, is set when the value it takes by a back edge
	// depends on which arm of a branch in the loop ran (hits++ in one
	// arm): when the last branch decided since the previous back edge
	// was one of the loop's on an unknown value, which the profiled
	// frequency decided, such a result is a guess, and counts as
	// unknown.
	Joined []bool
	// Loose, per result, is set when an arm may make it known again
	// (last = i, best = x where a test on the data holds): it stays a
	// guess only while the branches deciding it are guesses, so it
	// counts as unknown only after LooseAfter iterations of an entry
	// whose last branch was a guess: a serial check's scan of millions
	// of unknown items stops, an argmax over a pivot column runs.
	Loose []bool
	// Left, when set, is the share of an entry's time in its iterations
	// from done on, of trips, from the profile's per-iteration times; ok
	// is false where those do not cover the entry (another trip count):
	// the iterations are then taken as alike. A loop whose first task is
	// dear, run step by step up to it, has little left.
	Left func(done, trips int64) (share float64, ok bool)
}

// LooseAfter is the iterations of an entry after which a loose result
// (GiveUp.Loose) decided by a guess counts as unknown.
const LooseAfter = 1 << 16

// Binder answers a reduced nest's questions about the frame that enters
// it.
type Binder interface {
	// Value is the concrete integer value of v, or its length when v is
	// a slice, array or string.
	Value(v ssa.Value) (int64, bool)
	// Memory reads along a path from base, a value of the frame (or a
	// package variable): each step loads a struct field through a
	// pointer (Field >= 0), loads through a pointer (FieldDeref), or
	// takes element Index of a slice (FieldElem). It answers the integer
	// found there, or with length the length of the slice, array or
	// string found there.
	Memory(base ssa.Value, steps []MemRead, length bool) (int64, bool)
	// Rank and Size are what Comm.Rank and Comm.Size on the communicator
	// comm (a value of the frame; nil: the world) return on this rank: a
	// count may use them through calls inside the nest (y += c.Size() in
	// the loop's header), which never run. A comm the frame does not
	// hold answers for the world.
	Rank(comm ssa.Value) int64
	Size(comm ssa.Value) int64
}

// MemRead is one step of a Binder.Memory path.
type MemRead struct {
	Field int
	Index int64
}

// MemRead fields other than struct fields.
const (
	FieldDeref = -1
	FieldElem  = -2
)

// MemPath is memory reached from Base (a value defined before a reduced
// nest) by its Steps, as Binder.Memory reads them. With Elems the memory
// is that of each element of what the steps reach (the rows of a 2-D
// slice), else what they reach. With Slot the nest assigns the cell the
// steps end at, a value of type Slot (d.ps = append(d.ps, q) under a
// condition): that cell becomes unknown, and what it pointed to, while
// the rest of what Base reaches (d's other fields) stays known.
type MemPath struct {
	Base  ssa.Value
	Steps []MemRead
	Elems bool
	Slot  types.Type
}

// Growth is a slice held in memory that a reduced nest appends to: Base
// and Steps (as in MemPath) reach the pointer to the struct (Field >= 0:
// the slice is that field) or to the variable (Field < 0) holding it;
// Elem is its elements' type. How many elements an entry appends is the
// Reduction's GrowCounts.
type Growth struct {
	Base  ssa.Value
	Steps []MemRead
	Field int
	Elem  types.Type
}

// PhiGrowth is a header phi of a reduced nest that holds a slice the nest
// appends to (Reduction.PhiGrows): its value at the nest's exit is Entry's
// (the phi's operand from outside the nest) lengthened.
type PhiGrowth struct {
	Phi   *ssa.Phi
	Entry ssa.Value
	Elem  types.Type
}

// frequency prints a branch's profiled frequency with three digits, or as
// many more as it takes not to print 0 or 1 for one that is neither: a
// convergence loop's test taken 2130 times in 2131 reads 0.9995, not 1,
// which would say that the loop never ends.
func frequency(p float64) string {
	s := strconv.FormatFloat(p, 'g', 3, 64)
	for prec := 4; (s == "1" || s == "0") && p != 1 && p != 0 && prec <= 12; prec++ {
		s = strconv.FormatFloat(p, 'g', prec, 64)
	}
	return s
}
