package mpi

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/parpredict/parpredict/internal/atomicfile"
)

// TraceFormat and TraceVersion identify trace files; see docs/trace-format.md.
const (
	TraceFormat  = "parpredict-trace"
	TraceVersion = 1
)

// Trace is the record of one run: per rank, every MPI call and interval mark.
type Trace struct {
	Format  string      `json:"format"`
	Version int         `json:"version"`
	Backend string      `json:"backend"`
	NP      int         `json:"np"`
	Args    []string    `json:"args,omitempty"`
	Start   string      `json:"start"` // wall-clock start, RFC 3339
	Ranks   []RankTrace `json:"ranks"`
}

// RankTrace holds one rank's events in the order they happened.
type RankTrace struct {
	Rank   int     `json:"rank"`
	Events []Event `json:"events"`
}

// Event is one MPI call (T0 = enter, T1 = leave, seconds of Wtime) or an
// interval mark (T0 = T1). Peer is the point-to-point partner (for Recv and
// Wait the actual source), Root the root of a rooted collective; -1 where
// not applicable. Bytes is the payload this rank sent (receives: received).
type Event struct {
	Op    string  `json:"op"`
	T0    float64 `json:"t0"`
	T1    float64 `json:"t1"`
	Peer  int     `json:"peer"`
	Root  int     `json:"root"`
	Bytes int     `json:"bytes"`
	Tag   int     `json:"tag"`
	Req   int     `json:"req,omitempty"` // links Isend/Irecv to their Wait
	ID    int     `json:"id,omitempty"`  // interval id
	Site  string  `json:"site"`
	// W is how many calls the event stands for in a sampled trace
	// ($PARPREDICT_TRACE_SAMPLE); absent (0) means 1.
	W int `json:"w,omitempty"`
}

type rankTrace struct {
	// Events are kept in chunks of fixed size: a growing slice would copy
	// every event recorded so far each time it grows, on the rank's path
	// between two MPI calls.
	chunks [][]Event
	nreq   int

	// Sampling ($PARPREDICT_TRACE_SAMPLE): the first sampleStage calls
	// are all recorded, the next sampleStage recorded ones each stand for
	// 2 calls, then 4, ...: which calls, a per-rank pseudo-random sequence
	// decides (the same in every run), so that a pattern (a Send after
	// every Recv) cannot line up with the sampling.
	sample   bool
	recorded int
	rng      uint64
	w        int // the weight of the call being recorded
}

// sampleStage is how many calls are recorded at each sampling rate.
const sampleStage = 1024

// newRankTrace starts the trace of one rank.
func newRankTrace(rank int) *rankTrace {
	return &rankTrace{sample: os.Getenv(EnvTraceSample) != "", rng: uint64(rank)*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d, w: 1}
}

// take decides whether to record the call that starts now.
func (t *rankTrace) take() bool {
	stage := min(t.recorded/sampleStage, 30)
	if stage == 0 {
		t.w = 1
		return true
	}
	t.rng ^= t.rng << 13
	t.rng ^= t.rng >> 7
	t.rng ^= t.rng << 17
	if t.rng&(1<<stage-1) != 0 {
		return false
	}
	t.w = 1 << stage
	return true
}

const traceChunk = 4096

func (t *rankTrace) add(e Event) {
	if n := len(t.chunks); n == 0 || len(t.chunks[n-1]) == cap(t.chunks[n-1]) {
		t.chunks = append(t.chunks, make([]Event, 0, traceChunk))
	}
	last := &t.chunks[len(t.chunks)-1]
	*last = append(*last, e)
}

// events returns the rank's events in order, in one slice.
func (t *rankTrace) events() []Event {
	n := 0
	for _, c := range t.chunks {
		n += len(c)
	}
	out := make([]Event, 0, n)
	for _, c := range t.chunks {
		out = append(out, c...)
	}
	return out
}

var epoch = time.Now()

// Wtime is the elapsed wall-clock time in seconds since the process started.
func Wtime() float64 { return time.Since(epoch).Seconds() }

// start returns the enter time of an operation when tracing is on.
// With sampling, it returns -1 for a call that is not recorded.
func (c *Comm) start() float64 {
	if c.tr == nil {
		return 0
	}
	if c.tr.sample && !c.tr.take() {
		return -1
	}
	return Wtime()
}

func (c *Comm) record(t0 float64, op string, peer, root, bytes, tag, req int) {
	if c.tr == nil || t0 < 0 {
		return
	}
	e := Event{Op: op, T0: t0, T1: Wtime(), Peer: peer, Root: root, Bytes: bytes, Tag: tag, Req: req, Site: callSite()}
	if c.tr.sample {
		c.tr.recorded++
		if c.tr.w > 1 {
			e.W = c.tr.w
		}
	}
	c.tr.add(e)
}

func (c *Comm) nextReq() int {
	if c.tr == nil {
		return 0
	}
	c.tr.nreq++
	return c.tr.nreq
}

func newTrace(backend string, np int) *Trace {
	return &Trace{Format: TraceFormat, Version: TraceVersion, Backend: backend, NP: np,
		Args: os.Args[1:], Start: time.Now().UTC().Format(time.RFC3339)}
}

// WriteFile writes the trace as JSON to path atomically: a temporary file in
// the same directory, renamed over path.
func (t *Trace) WriteFile(path string) error {
	data, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return fmt.Errorf("mpi: encoding trace: %w", err)
	}
	if err := atomicfile.Write(path, append(data, '\n')); err != nil {
		return fmt.Errorf("mpi: writing %s: %w", path, err)
	}
	return nil
}

// ReadTrace reads a trace file written by WriteFile.
func ReadTrace(path string) (*Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mpi: %w", err)
	}
	var t Trace
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("mpi: %s: not a trace file: %w", path, err)
	}
	if t.Format != TraceFormat {
		return nil, fmt.Errorf("mpi: %s: format %q, want %q", path, t.Format, TraceFormat)
	}
	if t.Version != TraceVersion {
		return nil, fmt.Errorf("mpi: %s: trace version %d, this build reads version %d", path, t.Version, TraceVersion)
	}
	if len(t.Ranks) != t.NP {
		return nil, fmt.Errorf("mpi: %s: %d rank records for np %d", path, len(t.Ranks), t.NP)
	}
	return &t, nil
}
