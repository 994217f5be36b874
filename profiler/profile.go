package profiler

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/parpredict/parpredict/internal/atomicfile"
)

// Format and Version identify profile files; Load refuses anything else.
const (
	Format = "parpredict-profile"
	// Version 2 added the outcome counts of loop exit tests; version 3
	// the copy regions, and the outer of two nested range loops named by
	// its own statement (a version 2 profile of such a program keys the
	// loops differently, and has no copy regions: its predictions would
	// silently lose both).
	Version = 3
	// Probes is the revision of the probe placement a profile's meta
	// records. A profile of an older revision has the same fields and is
	// still read, but it timed less: before revision 2 (2026-11-26) a call
	// inside an expression (total(c, work(n)), if check(x), return g(x))
	// had no timer, and the function it called ran untimed; before
	// revision 3 (2026-11-26) a library call statement did not count the
	// lengths of its arguments (its Iters), and was costed per call
	// whatever the rank's share of the data, and what Bcast call sites
	// broadcast was not kept (MPISite.Data); before revision 4
	// (2026-11-27) the contention runs did not keep those lengths at each
	// rank count (Contention.Lengths), and a call given data of a length
	// the prediction cannot know cost its time per call at the profiled
	// rank count; before revision 5 (2026-11-27) regions and MPI call
	// sites the profiled run never reached had no numbers even where a
	// contention run reached them (Region.Ranks); in revision 5 a region
	// holding MPI calls that a run's trace did not show (a loop polling
	// with Test, or through a helper) took a contention run's numbers,
	// its count of failed polls (markMPIHolders); before revision 7 an
	// outermost loop of iterations too fine for a tick in the timed runs
	// had no per-iteration times (Imbalance.Fine); before revision 8
	// (2026-11-27) a closure of a method was named without the method's
	// receiver (main.Step$1), so that the closures of two methods of one
	// name shared their regions' IDs; before revision 9 (2026-11-28) a
	// loop's per-iteration times were each ordinal's fastest over the
	// loop's entries, not their mean (Imbalance.IterNs); before revision
	// 10 (2026-11-28) the timers of code the counting run never reached
	// were planned without the contention runs' counts, and a call in
	// the inner loop of code that runs only with a neighbour was timed
	// millions of times in them; before revision 11 (2026-11-29) the
	// contention runs kept no loop's trips per rank (RankTrips); before
	// revision 12 (2026-11-29) the tests of a && or || whose value is
	// used (`ok := a && b`) were not counted (BranchTests). A default
	// profile of an older revision is made again.
	Probes = 12
)

// Profile is the content of a profile file: the measured numbers of every
// region of one program, run with given arguments on one machine.
type Profile struct {
	Format     string      `json:"format"`
	Version    int         `json:"version"`
	Meta       Meta        `json:"meta"`
	Totals     Totals      `json:"totals"`
	Regions    []Region    `json:"regions"` // sorted by ID
	MPI        []MPISite   `json:"mpi"`     // sorted by site
	Contention *Contention `json:"contention,omitempty"`

	index map[string]int
}

// Meta says what was profiled, where and how.
type Meta struct {
	Package    string       `json:"package"` // import path of the main package
	Args       []string     `json:"args"`    // program arguments
	NP         int          `json:"np"`      // rank count of the profiled run
	GoVersion  string       `json:"goVersion"`
	OS         string       `json:"os"`
	Arch       string       `json:"arch"`
	CPU        string       `json:"cpu"`
	Cores      int          `json:"cores"`
	GOMAXPROCS int          `json:"gomaxprocs"`
	Date       string       `json:"date"` // RFC 3339, UTC
	SourceHash string       `json:"sourceHash"`
	Sources    []SourceFile `json:"sources"`
	ProbeCost  ProbeCost    `json:"probeCost"`
	Targets    string       `json:"targets"`          // where region IDs come from: "model" or "syntax" (the fallback)
	Probes     int          `json:"probes,omitempty"` // revision of the probe placement (Probes); absent: 1
}

// SourceFile is one analysed file and the SHA-256 of its content.
type SourceFile struct {
	Path   string `json:"path"` // relative to the module root
	SHA256 string `json:"sha256"`
}

// ProbeCost are the calibrated probe costs and the clock resolution, in
// nanoseconds.
type ProbeCost struct {
	TimerNs      float64 `json:"timerNs"`
	BodyNs       float64 `json:"bodyNs"`
	LoopNs       float64 `json:"loopNs"`
	UntimedNs    float64 `json:"untimedNs"`
	TickNs       float64 `json:"tickNs"`
	VecEntryNs   float64 `json:"vecEntryNs,omitempty"`
	VecElemNs    float64 `json:"vecElemNs,omitempty"`
	ResolutionNs float64 `json:"resolutionNs"`
}

// Totals sum up the run. At NP 1, AccountedNs (own times plus MPI time)
// should match BaselineMainNs, the run time of the uninstrumented
// program's main (its process wall time, BaselineNs, adds start-up).
type Totals struct {
	MainNs      float64 `json:"mainNs"`      // main's body, probe cost included
	OwnNs       float64 `json:"ownNs"`       // sum of own times of timed regions
	MPINs       float64 `json:"mpiNs"`       // MPI time attributed to regions
	AccountedNs float64 `json:"accountedNs"` // OwnNs + MPINs
	WallNs      float64 `json:"wallNs"`      // instrumented process, wall clock
	BaselineNs  float64 `json:"baselineNs"`  // uninstrumented process, wall clock (0: not run)
	// BaselineMainNs is main's time in the uninstrumented program (a
	// single timer on main's body; 0: not run).
	BaselineMainNs float64 `json:"baselineMainNs,omitempty"`
	// PlainBodyNs is the time of the ranks' bodies (the function given
	// to mpi.Main) in the program built without any probe, summed over
	// the ranks, fastest of the runs (0: not run, or run under a
	// launcher). Its code is laid out as the user's binary is, which a
	// probe anywhere can change: prediction scales compute by it when it
	// differs much from AccountedNs.
	PlainBodyNs   float64 `json:"plainBodyNs,omitempty"`
	Overhead      float64 `json:"overhead"`       // WallNs / BaselineNs
	ProbeCostNs   float64 `json:"probeCostNs"`    // probe cost subtracted
	TimedRegions  int     `json:"timedRegions"`   // regions with a timer
	CountedRegion int     `json:"countedRegions"` // regions with counters only
}

// Region holds the numbers of one region. Times are in nanoseconds,
// summed over all ranks, with probe cost subtracted.
type Region struct {
	ID     string `json:"id"`
	Kind   Kind   `json:"kind"`
	Func   string `json:"func"`
	File   string `json:"file"` // relative to the module root
	Line   int    `json:"line"`
	Parent string `json:"parent,omitempty"` // enclosing region

	// Timed regions have a timer; the time of the others is part of the
	// own time of FoldedInto, their nearest timed enclosing region.
	Timed      bool   `json:"timed"`
	FoldedInto string `json:"foldedInto,omitempty"`

	Execs int64 `json:"execs"` // executions; entries for loops
	// Iters are a loop's iterations, a copy's elements, and a library
	// call site's argument lengths (its slices' and strings', summed over its executions; absent where the profiler could not
	// take them, docs/profile-format.md).
	Iters   int64   `json:"iters,omitempty"`
	TotalNs float64 `json:"totalNs,omitempty"` // inclusive time (timed)
	OwnNs   float64 `json:"ownNs,omitempty"`   // time not in timed children nor MPI (timed)
	MPINs   float64 `json:"mpiNs,omitempty"`   // MPI calls directly in this region

	OwnPerExecNs float64 `json:"ownPerExecNs,omitempty"`
	OwnPerIterNs float64 `json:"ownPerIterNs,omitempty"` // loops, copies, library calls with Iters

	Trips *Trips `json:"trips,omitempty"` // loops
	// RankTrips are a data-dependent loop's trip statistics per rank
	// (index), from the counting run; absent for loops whose trip count
	// is known at entry.
	RankTrips []Trips    `json:"rankTrips,omitempty"`
	Imbalance *Imbalance `json:"imbalance,omitempty"` // outermost loops with per-iteration times
	Prob      *float64   `json:"prob,omitempty"`      // arms: share of the executions of the if or switch
	Callee    string     `json:"callee,omitempty"`    // calls
	Library   bool       `json:"library,omitempty"`   // calls of functions outside the program
	Rank      bool       `json:"rank,omitempty"`      // function literal run by every rank
	// Ranks is set where the profiled run never reached the region and
	// its numbers come from the contention run with that many ranks
	// (fillUnreached): code that runs only with more ranks.
	Ranks int `json:"ranks,omitempty"`
}

// Trips are trip-count statistics of a loop over its entries.
type Trips struct {
	Min  int64   `json:"min"`
	Max  int64   `json:"max"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// Imbalance is the ParJava balance test of a loop: T_mean is the mean
// iteration time, D the largest deviation of an iteration's time from it
// (reproduced in every run, see docs/profiler.md), and the loop is
// balanced when D <= 0.1 T_mean. IterNs is the time of each iteration by
// ordinal (the mean over the entries that reached it, the minimum over
// runs), so that any distribution of the iterations over ranks can be
// costed. Profiles of probe revision 8 and before hold the minimum over
// entries.
type Imbalance struct {
	TMeanNs  float64   `json:"tMeanNs"`
	DNs      float64   `json:"dNs"`
	Ratio    float64   `json:"ratio"` // D / T_mean
	Balanced bool      `json:"balanced"`
	Trimmed  int       `json:"trimmed"` // largest deviations left out as outliers
	Runs     int       `json:"runs"`    // runs the test agreed over
	IterNs   []float64 `json:"iterNs"`
	// Fine is set when the iterations were too fine for a tick in the
	// timed runs and the vector comes from runs of its own (probe
	// revision 7): a fraction of a microsecond each, so what an
	// iteration costs after others in one run (the allocator's cadence,
	// a cache line shared with the previous one) shows in it as much as
	// its data.
	Fine bool `json:"fine,omitempty"`
}

// MPISite is the time of the MPI calls at one call site, from the mpi
// runtime's own trace.
type MPISite struct {
	Site    string  `json:"site"` // file.go:line
	Op      string  `json:"op"`
	Calls   int64   `json:"calls"`
	TotalNs float64 `json:"totalNs"`
	// Bytes is the payload of the calls in all (each call's as the trace
	// records it: what the rank sent, a receive what it received), for a
	// prediction that cannot size a buffer (SiteBytes).
	Bytes int64 `json:"bytes,omitempty"`
	// Data is the payload of a Bcast site whose every call, on every
	// rank, carried the same bytes (at most mpi.MaxTracedValues): for a
	// prediction whose interpreter cannot know them (BcastData).
	Data   []byte `json:"data,omitempty"`
	Region string `json:"region,omitempty"` // timed region holding the call; empty: folded into callers
	// Ranks is set where the profiled run never called the site and its
	// numbers come from the contention run with that many ranks.
	Ranks int `json:"ranks,omitempty"`
}

// Load reads and checks a profile file.
func Load(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profiler: %w", err)
	}
	return Parse(path, data)
}

func (p *Profile) reindex() {
	sort.Slice(p.Regions, func(i, j int) bool { return p.Regions[i].ID < p.Regions[j].ID })
	p.index = make(map[string]int, len(p.Regions))
	for i, r := range p.Regions {
		p.index[r.ID] = i
	}
}

// Region returns the region with the given ID.
func (p *Profile) Region(id string) (*Region, bool) {
	if p.index == nil {
		p.reindex()
	}
	i, ok := p.index[id]
	if !ok {
		return nil, false
	}
	return &p.Regions[i], true
}

// Save writes the profile to path atomically. It refuses a profile with
// two regions of one ID, which Load would refuse: that is a fault in how
// regions are named, not in the program, and profiling again would not
// help.
func (p *Profile) Save(path string) error {
	seen := make(map[string]bool, len(p.Regions))
	for _, r := range p.Regions {
		if seen[r.ID] {
			return fmt.Errorf("profiler: not writing %s: two regions have the id %s (in %s, %s:%d); this is a fault of parpredict's region names, please report it with the program", path, r.ID, r.Func, r.File, r.Line)
		}
		seen[r.ID] = true
	}
	p.reindex()
	data, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return fmt.Errorf("profiler: %w", err)
	}
	if err := atomicfile.Write(path, append(data, '\n')); err != nil {
		return fmt.Errorf("profiler: writing %s: %w", path, err)
	}
	return nil
}
