package mpi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
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
	// Start and Finish are when the rank's body (the function given to
	// Main, Run or Launch) began and returned, seconds of Wtime; 0 where
	// the backend does not record them (the MPI backends).
	Start  float64 `json:"start,omitempty"`
	Finish float64 `json:"finish,omitempty"`
	// Values are the payloads of the rank's Bcast call sites where every
	// call carried the same bytes, at most MaxTracedValues of them (the
	// goroutine backend's traces only).
	Values []SiteValues `json:"values,omitempty"`
}

// MaxTracedValues bounds the payload a trace keeps of a Bcast call
// (SiteValues): a few sizes or parameters, not data.
const MaxTracedValues = 64

// SiteValues is what every Bcast at one call site carried on a rank. The
// profile keeps it for predictions whose interpreter cannot know the
// values (sizes rank 0 read from a file and broadcast).
type SiteValues struct {
	Site string `json:"site"`
	Op   string `json:"op"`
	Data []byte `json:"data"`
}

// BodySum is the time of the ranks' bodies (Finish - Start) summed over
// the ranks, in seconds; false when a rank has no body times (the MPI
// backends do not record them).
func (t *Trace) BodySum() (float64, bool) {
	if !t.bodiesTimed() {
		return 0, false
	}
	sum := 0.0
	for _, rk := range t.Ranks {
		sum += rk.Finish - rk.Start
	}
	return sum, true
}

// LastFinish is when the last rank's body returned, seconds of Wtime
// (whose origin is the package's initialisation, before main runs);
// false when a rank has no body times.
func (t *Trace) LastFinish() (float64, bool) {
	if !t.bodiesTimed() {
		return 0, false
	}
	end := 0.0
	for _, rk := range t.Ranks {
		end = max(end, rk.Finish)
	}
	return end, true
}

// bodiesTimed reports whether every rank (and at least one) has the times
// of its body.
func (t *Trace) bodiesTimed() bool {
	for _, rk := range t.Ranks {
		if !(rk.Finish > rk.Start && rk.Start > 0) {
			return false
		}
	}
	return len(t.Ranks) > 0
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
	// Rec is how long recording the event took after T1 (finding its
	// call site, storing it), in seconds: the rank's time, outside the
	// call, that tracing added. Absent in traces of other versions.
	Rec float64 `json:"rec,omitempty"`
}

type rankTrace struct {
	// Events are recorded as recs, kept in chunks of fixed size: a growing
	// slice would copy every event recorded so far each time it grows, on
	// the rank's path between two MPI calls.
	chunks [][]rec
	nreq   int

	// intervalsOnly ($PARPREDICT_TRACE_INTERVALS): only the interval
	// marks are recorded, so that a run timed by its intervals is not
	// slowed down by recording its MPI calls.
	intervalsOnly bool

	// Sampling ($PARPREDICT_TRACE_SAMPLE), per operation (Send, Bcast,
	// ...): its first sampleStage calls are all recorded; then its calls
	// are cut into blocks of 2, and one call of each block is recorded,
	// standing for 2 calls, for the next sampleStage recorded ones; then
	// blocks of 4, ... Which call of a block, a per-rank pseudo-random
	// sequence decides (the same in every run), so that a pattern (a Send
	// after every Recv) cannot line up with the sampling; one call per
	// block keeps the weights adding up to the calls made, up to the last
	// block. Per operation, so that an operation called a few times (the
	// one Gatherv after thousands of Allreduces) is recorded call by call:
	// sampled with the others, it stood for the 8 calls of its block, its
	// site's time 8 times too long (heat's 1.5 ms Gatherv read 12.2 ms),
	// or vanished.
	sample   bool
	rng      uint64
	samplers []sampler // by operation code

	values map[int32]*tracedValues // by call site: Bcast payloads
}

// tracedValues is the payload of a call site's Bcasts, until one differs.
type tracedValues struct {
	op     opcode
	data   []byte
	varied bool
}

// noteValues records the payload data of a call of op (a Bcast) at site
// (record's answer; siteUnknown: found here), kept for its call site while
// every call there carries the same bytes.
func (t *rankTrace) noteValues(op opcode, site int32, data []byte) {
	if t.intervalsOnly {
		return
	}
	if site == siteUnknown {
		site = callSiteID() // a call sampling left out
	}
	if t.values == nil {
		t.values = map[int32]*tracedValues{}
	}
	v := t.values[site]
	switch {
	case v == nil && len(data) <= MaxTracedValues:
		t.values[site] = &tracedValues{op: op, data: bytes.Clone(data)}
	case v == nil:
		t.values[site] = &tracedValues{op: op, varied: true}
	case !v.varied && !bytes.Equal(v.data, data):
		v.varied, v.data = true, nil
	}
}

// siteValues are the payloads noteValues kept, by call site name.
func (t *rankTrace) siteValues() []SiteValues {
	sites := siteNamesNow()
	var out []SiteValues
	for id, v := range t.values {
		if !v.varied && id >= 0 {
			out = append(out, SiteValues{Site: sites[id], Op: opNames[v.op], Data: v.data})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out
}

// sampler is the sampling state of one operation in a rank's trace.
type sampler struct {
	recorded int
	block    int // size of the current block: the weight of its call
	left     int // calls of the current block still to come
	pick     int // the call of the current block to record, counted down with left
}

// rec is an event as a rank records it. It holds no pointer (the
// operation and the call site are small numbers), so that recording one
// is a plain copy: no write barriers while the collector runs, nothing
// for it to scan. A recorded call delays the rank's peers too (it sits
// between two MPI calls), so its cost counts twice.
type rec struct {
	t0, t1                      float64
	peer, root, bytes, tag, req int64
	rec                         float64 // seconds spent recording it after t1
	id                          int32
	w                           int32
	op                          opcode
	site                        int32 // siteNames index, -1: none
}

// sampleStage is how many calls of an operation are recorded at each
// sampling rate. Each recorded call costs its rank, and the peers waiting
// for it, a fraction of a microsecond (docs/trace-format.md), and a stage
// of n calls adds n such delays to the waits the sample measures: a small
// stage keeps that bias below 1 % of a ping-pong's time while leaving
// some 2,500 samples per 100,000 calls of an operation.
const sampleStage = 256

// newRankTrace starts the trace of one rank.
func newRankTrace(rank int) *rankTrace {
	t := &rankTrace{sample: os.Getenv(EnvTraceSample) != "", intervalsOnly: os.Getenv(EnvTraceIntervals) != "",
		rng: uint64(rank)*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d}
	if t.sample {
		t.samplers = make([]sampler, opCount)
	}
	return t
}

// take decides whether to record the call of operation op that starts
// now.
func (t *rankTrace) take(op opcode) bool {
	s := &t.samplers[op]
	if s.left == 0 {
		stage := min(s.recorded/sampleStage, 30)
		s.block, s.left = 1<<stage, 1<<stage
		t.rng ^= t.rng << 13
		t.rng ^= t.rng >> 7
		t.rng ^= t.rng << 17
		s.pick = int(t.rng % uint64(s.block))
	}
	s.left--
	return s.left == s.pick
}

const traceChunk = 4096

// add stores e and returns where it is stored.
func (t *rankTrace) add(e rec) *rec {
	if n := len(t.chunks); n == 0 || len(t.chunks[n-1]) == cap(t.chunks[n-1]) {
		t.chunks = append(t.chunks, make([]rec, 0, traceChunk))
	}
	last := &t.chunks[len(t.chunks)-1]
	*last = append(*last, e)
	return &(*last)[len(*last)-1]
}

// mark records an interval mark.
func (t *rankTrace) mark(op opcode, id int) {
	now := Wtime()
	t.add(rec{op: op, t0: now, t1: now, peer: -1, root: -1, tag: -1, id: int32(id), w: 1, site: callSiteID()})
}

// events returns the rank's events in order, in one slice.
func (t *rankTrace) events() []Event {
	n := 0
	for _, c := range t.chunks {
		n += len(c)
	}
	out := make([]Event, 0, n)
	sites := siteNamesNow()
	for _, c := range t.chunks {
		for _, r := range c {
			e := Event{Op: opNames[r.op], T0: r.t0, T1: r.t1, Peer: int(r.peer), Root: int(r.root), Bytes: int(r.bytes),
				Tag: int(r.tag), Req: int(r.req), ID: int(r.id)}
			if r.site >= 0 {
				e.Site = sites[r.site]
			}
			if r.w > 1 {
				e.W = int(r.w)
			}
			e.Rec = r.rec
			out = append(out, e)
		}
	}
	return out
}

// opcode is an operation's code in a trace record: its index in opNames.
// The functions of the package pass their constant, so that an MPI call
// of a traced run looks nothing up by name.
type opcode uint8

const (
	opUnknown opcode = iota
	opSend
	opRecv
	opSendrecv
	opIsend
	opIrecv
	opWait
	opWaitall
	opTest
	opBarrier
	opBcast
	opReduce
	opAllreduce
	opGather
	opGatherv
	opScatter
	opScatterv
	opAllgather
	opAlltoall
	opAlltoallv
	opAllgatherv
	opScan
	opExscan
	opSplit
	opBeginInterval
	opEndInterval
	opCount // the number of codes
)

// opNames are the operations' names in a trace, by code.
var opNames = [opCount]string{"?", "Send", "Recv", "Sendrecv", "Isend", "Irecv", "Wait", "Waitall", "Test",
	"Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Gatherv", "Scatter", "Scatterv",
	"Allgather", "Alltoall", "Alltoallv", "Allgatherv", "Scan", "Exscan", "Split", "BeginInterval", "EndInterval"}

var epoch = time.Now()

// Wtime is the elapsed wall-clock time in seconds since the process started.
func Wtime() float64 { return time.Since(epoch).Seconds() }

// start returns the enter time of operation op when tracing is on. It
// returns -1 for a call that is not recorded (sampling, interval marks
// only): such a call reads no clock.
func (c *Comm) start(op opcode) float64 {
	if c.tr == nil {
		return 0
	}
	if c.tr.intervalsOnly || c.tr.sample && !c.tr.take(op) {
		return -1
	}
	return Wtime()
}

// record stores the call of op begun at t0 (start), and returns its call
// site (siteUnknown when the call is not recorded).
func (c *Comm) record(t0 float64, op opcode, peer, root, bytes, tag, req int) int32 {
	if c.tr == nil || t0 < 0 {
		return siteUnknown
	}
	e := rec{op: op, t0: t0, t1: Wtime(), peer: int64(peer), root: int64(root), bytes: int64(bytes),
		tag: int64(tag), req: int64(req), w: 1, site: callSiteID()}
	if c.tr.sample {
		s := &c.tr.samplers[op]
		s.recorded++
		e.w = int32(s.block)
	}
	// What recording took after the call's end (its call site, storing
	// it): time of the rank's own that the profiler does not count as
	// the user's code around the call.
	c.tr.add(e).rec = Wtime() - e.t1
	return e.site
}

// siteUnknown is record's answer for a call it did not record.
const siteUnknown int32 = -3

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
	return ParseTrace(path, data)
}

// ParseTrace reads a trace from data (name is the file, for messages) and
// checks what its readers rely on: one record per rank, in rank order,
// and events that do not end before they begin.
func ParseTrace(name string, data []byte) (*Trace, error) {
	var t Trace
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("mpi: %s: not a trace file: %w", name, err)
	}
	if t.Format != TraceFormat {
		return nil, fmt.Errorf("mpi: %s: format %q, want %q", name, t.Format, TraceFormat)
	}
	if t.Version != TraceVersion {
		return nil, fmt.Errorf("mpi: %s: trace version %d, this build reads version %d", name, t.Version, TraceVersion)
	}
	if len(t.Ranks) != t.NP {
		return nil, fmt.Errorf("mpi: %s: %d rank records for np %d", name, len(t.Ranks), t.NP)
	}
	for i, rk := range t.Ranks {
		if rk.Rank != i {
			return nil, fmt.Errorf("mpi: %s: rank record %d is for rank %d", name, i, rk.Rank)
		}
		for j, e := range rk.Events {
			if !(e.T1 >= e.T0) || e.W < 0 || !(e.Rec >= 0) {
				return nil, fmt.Errorf("mpi: %s: rank %d, event %d (%s): times %g to %g, weight %d, recording %g s", name, i, j, e.Op, e.T0, e.T1, e.W, e.Rec)
			}
		}
	}
	return &t, nil
}
