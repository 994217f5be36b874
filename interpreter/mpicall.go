package interpreter

import (
	"encoding/binary"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// MPIPath is the import path of the SPMD runtime whose calls become
// simulated MPI operations.
const MPIPath = "github.com/parpredict/parpredict/mpi"

// pkgPath is the import path of fn's package (of the generic origin for
// instances).
func pkgPath(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path()
	}
	return ""
}

func isMPI(fn *ssa.Function) bool { return pkgPath(fn) == MPIPath }

// pendingCall is an MPI call waiting for the simulator to complete it.
type pendingCall struct {
	dst      int32 // the call's result slot
	tuple    bool  // the call returns (Status, bool): Test
	status   bool  // the call returns a Status
	statuses int   // Waitall: number of statuses
	lost     bool  // Waitall of a list the interpreter does not know: its statuses are unknown
	elemSize int
	unused   bool   // nothing reads the result: it need not be made
	split    bool   // the call is Split: the result is the new communicator
	group    *Group // the call's communicator, to turn world ranks back into its ranks
	testReq  int    // Test: its request
}

// mpiCall turns a call of package mpi into an Op for the simulator, or
// answers it at once (Rank, Size, ...).
func (r *ssaRank) mpiCall(f *frame, in ssa.CallInstruction, ic *instrCode, ci *calleeInfo, args []value) (Op, bool, error) {
	name, es := ci.mpiName, ci.elemSize
	// Rank and Size, called every step by many programs, need none of
	// what follows.
	var g *Group
	if ci.onComm {
		var err error
		if g, err = r.commOf(in, name, args[0]); err != nil {
			return Op{}, false, err
		}
	}
	rank, size := r.rankSize(g)
	switch ci.mpiQuery {
	case queryRank:
		r.set(f, intv(int64(rank)))
		return Op{}, false, nil
	case querySize:
		r.set(f, intv(int64(size)))
		return Op{}, false, nil
	}
	if ic.site == "" {
		ic.site = mpiSite(r.shared.prog.Fset, in.Pos())
	}
	op := Op{Site: ic.site, Group: g}
	intArg := func(i int, what string) (int, error) {
		if args[i].k != vInt {
			return 0, r.errorf(in.Pos(), "mpi.%s: the %s is not known to the interpreter (it depends on skipped work or a library result)", name, what)
		}
		return int(args[i].i), nil
	}
	// rankArg is a rank argument of the call's communicator, as a world
	// rank (the simulator's).
	rankArg := func(i int, what string) (int, error) {
		v, err := intArg(i, what)
		if err != nil {
			return v, err
		}
		if v < 0 || v >= size {
			return 0, r.errorf(in.Pos(), "mpi.%s: %s %d is out of range for a communicator of %d ranks%s", name, what, v, size, r.guessedNote())
		}
		if g == nil {
			return v, nil
		}
		return g.Members[v], nil
	}
	// sourceArg is a receive's source rank, which may be AnySource.
	sourceArg := func(i int) (int, error) {
		if v, err := intArg(i, "source rank"); err != nil || v == AnySource {
			return v, err
		}
		return rankArg(i, "source rank")
	}
	bytesOf := func(i int) int {
		if args[i].k == vSlice {
			return int(args[i].n) * es
		}
		if args[i].k == vNil {
			return 0
		}
		if ss, ok := r.shared.oracle.(SiteSizer); ok {
			if b, ok := ss.SiteBytes(op.Site, name); ok {
				r.assume(in.Pos(), "mpi.%s: buffer length unknown, message size taken as the profiled run's mean at this call, %.0f bytes", name, b)
				return int(b)
			}
			if b, at, ok := r.sameDataBytes(in, ic, i, ss); ok {
				r.assume(in.Pos(), "mpi.%s: buffer length unknown and no profiled call here to size it, message size taken as the profiled run's mean at %s, which sends the same data: %.0f bytes", name, at, b)
				return int(b)
			}
			// Code the profile's runs never reached (a Sendrecv of the
			// interior ranks, a profile at 1 and 2 ranks): runs at more
			// ranks would have sized it.
			r.assume(in.Pos(), "mpi.%s: buffer length unknown and no profiled call here to size it, message size taken as 0 bytes (a profile with contention runs at more ranks, --profile-ppn 1,2,4, reaches code that runs only with them)", name)
			return 0
		}
		r.assume(in.Pos(), "mpi.%s: buffer length unknown, message size taken as 0 bytes", name)
		return 0
	}
	// capacityOf is the byte size of receive buffer i. One of unknown
	// length (made by a library call, cut to a count received before)
	// takes any message: the sender's size is what the transfer costs,
	// and refusing it as truncated would blame the program for the
	// interpreter's guess.
	capacityOf := func(i int) int {
		if args[i].k == vSlice || args[i].k == vNil {
			return bytesOf(i)
		}
		r.assume(in.Pos(), "mpi.%s: receive buffer length unknown, taken to hold the message it gets", name)
		return math.MaxInt
	}
	var err error
	r.awaitBuf = pendingCall{dst: ic.dst, tuple: fnResults(in) == 2, elemSize: es, unused: ic.unused, group: g}
	wait := &r.awaitBuf
	switch name {
	case "init":
		return op, false, nil // the runtime's flags are the sweep's business
	case "Main", "Run":
		body := args[len(args)-1]
		if body.fun() == nil {
			return op, false, r.errorf(in.Pos(), "mpi.%s: the SPMD body is not a known function", name)
		}
		if name == "Run" {
			r.set(f, nilValue)
		}
		r.started = true
		if err := r.pushCall(body.fun(), []value{{k: vOpaque, sp: &nameComm}}, body.obj, -1); err != nil {
			return op, false, err
		}
		r.top().onExit = func() { r.stack = r.stack[:0] } // the rank ends with its body
		return op, false, nil
	case "Wtime":
		r.set(f, unknown)
		return op, false, nil
	case "BeginInterval", "EndInterval":
		if args[1].k != vInt {
			r.assume(in.Pos(), "interval id unknown: the interval is not timed")
			return op, false, nil
		}
		op.Kind, op.Req = OpMark, int(args[1].i)
		if name == "BeginInterval" {
			op.Tag = 1
		}
		r.await = nil
		return op, true, nil
	case "Abort":
		return op, false, r.errorf(in.Pos(), "rank %d calls Abort(%v)%s", r.rank, args[1], r.printedNote())
	case "Split":
		op.Kind = OpSplit
		if op.Color, err = intArg(1, "color"); err == nil {
			op.Key, err = intArg(2, "key")
		}
		if op.Color < 0 {
			op.Color = -1 // mpi.Undefined, as the runtime takes any negative color
		}
		wait.split = true
	case "Barrier":
		op.Kind = OpBarrier
		wait = nil
	case "Send", "Isend":
		op.Kind, op.Bytes = OpSend, bytesOf(1)
		if op.Peer, err = rankArg(2, "destination rank"); err == nil {
			op.Tag, err = intArg(3, "tag")
		}
		op.Send = payload(args[1])
		wait = nil
		if name == "Isend" {
			op.Kind = OpIsend
			r.isRequest(f, &op)
		}
	case "Recv", "Irecv":
		op.Kind, op.Bytes = OpRecv, capacityOf(1)
		if op.Peer, err = sourceArg(2); err == nil {
			op.Tag, err = intArg(3, "tag")
		}
		op.Fault = r.received(in.Pos(), name, args[1])
		op.Recv = receiveInto(args[1])
		wait.status = true
		if name == "Irecv" {
			op.Kind = OpIrecv
			r.isRequest(f, &op)
			wait = nil
		}
	case "Sendrecv":
		op.Kind, op.Bytes, op.RecvBytes = OpSendrecv, bytesOf(1), capacityOf(4)
		if op.Peer, err = rankArg(2, "destination rank"); err == nil {
			if op.Tag, err = intArg(3, "send tag"); err == nil {
				if op.RecvPeer, err = sourceArg(5); err == nil {
					op.RecvTag, err = intArg(6, "receive tag")
				}
			}
		}
		op.Fault = r.received(in.Pos(), name, args[4])
		op.Send, op.Recv = payload(args[1]), receiveInto(args[4])
		wait.status = true
	case "Wait", "Test":
		if args[0].k != vOpaque || args[0].str() != "request" {
			return op, false, r.errorf(in.Pos(), "mpi.%s: the request is not known to the interpreter", name)
		}
		op.Kind, op.Req = OpWait, int(args[0].i)
		wait.status = true
		if res, done := r.testedDone[op.Req]; done {
			// A Test found it finished: answered at once.
			delete(r.testedDone, op.Req)
			if !ic.unused {
				st := statusValue(res, es)
				if name == "Test" {
					st = tuple(st, boolv(true))
				}
				r.set(f, st)
			}
			return op, false, nil
		}
		if name == "Test" {
			op.Kind, wait.testReq = OpTest, op.Req
		}
	case "Waitall":
		op.Kind = OpWaitall
		s := args[0]
		if s.k == vNil {
			// Waitall() or Waitall(reqs...) with reqs nil: nothing to
			// wait for (a rank without neighbours).
			break
		}
		if s.k != vSlice {
			// A list the interpreter lost track of (requests kept in a
			// struct's field and appended anew each step): the rank
			// waits for what it started and has not waited for.
			op.AllPending, wait.lost = true, true
			r.assume(in.Pos(), "mpi.Waitall: the request list is not known to the interpreter; taken as every request of this rank still pending")
			break
		}
		for j := range s.n {
			q := s.obj.get(s.i + j)
			if q.k == vNil {
				continue
			}
			if q.k != vOpaque || q.str() != "request" {
				return op, false, r.errorf(in.Pos(), "mpi.Waitall: request %d is not known to the interpreter", j)
			}
			if _, done := r.testedDone[int(q.i)]; done {
				delete(r.testedDone, int(q.i)) // a Test found it finished
				continue
			}
			op.Reqs = append(op.Reqs, int(q.i))
		}
		wait.statuses = int(s.n)
	case "Bcast":
		op.Kind, op.Bytes = OpBcast, bytesOf(1)
		op.Root, err = rankArg(2, "root")
		op.Fault = r.receivedAt(in.Pos(), name, args[1], op.Root)
		if sd, ok := r.shared.oracle.(SiteDataer); ok && err == nil {
			r.profiledBroadcast(in, sd, op.Site, args[1], op.Root == r.rank)
		}
		if err == nil && op.Root == r.rank {
			op.Send = payload(args[1])
		} else {
			op.Recv = receiveInto(args[1])
		}
	case "Reduce":
		op.Kind, op.Bytes, op.Elem = OpReduce, bytesOf(1), es
		op.Root, err = rankArg(4, "root")
		op.Fault = r.receivedAt(in.Pos(), name, args[2], op.Root)
		op.Send, op.Recv = reduceContribution(args[1], args[3]), receiveInto(args[2])
	case "Allreduce":
		op.Kind, op.Bytes, op.Elem = OpAllreduce, bytesOf(1), es
		op.Fault = r.received(in.Pos(), name, args[2])
		op.Send, op.Recv = reduceContribution(args[1], args[3]), receiveInto(args[2])
	case "Gather", "Gatherv":
		op.Kind, op.Bytes = OpGather, bytesOf(1)
		op.Root, err = rankArg(len(args)-1, "root")
		op.Fault = r.receivedAt(in.Pos(), name, args[2], op.Root)
		if name == "Gatherv" {
			r.assume(in.Pos(), "mpi.Gatherv is simulated as Gather with this rank's block size on every rank")
		} else if send := payloadUpTo(args[1], perMember(maxPayload, size)); send != nil {
			op.Send, op.Recv = send, receiveUpTo(args[2], maxGathered)
		}
	case "Scatter":
		op.Kind, op.Bytes = OpScatter, bytesOf(2)
		op.Root, err = rankArg(3, "root")
		op.Fault = r.received(in.Pos(), name, args[2])
		op.Send, op.Recv = payloadUpTo(args[1], maxGathered), receiveInto(args[2])
	case "Scatterv":
		op.Kind, op.Bytes = OpScatter, bytesOf(4)
		op.Root, err = rankArg(5, "root")
		op.Fault = r.received(in.Pos(), name, args[4])
		r.assume(in.Pos(), "mpi.Scatterv is simulated as Scatter with this rank's block size on every rank")
	case "Allgather":
		op.Kind, op.Bytes = OpAllgather, bytesOf(1)
		op.Fault = r.received(in.Pos(), name, args[2])
		if send := payloadUpTo(args[1], perMember(maxPayload, size)); send != nil {
			op.Send, op.Recv = send, receiveUpTo(args[2], maxGathered)
		}
	case "Allgatherv":
		op.Kind, op.Bytes = OpAllgather, bytesOf(1)
		op.Fault = r.received(in.Pos(), name, args[2])
		r.assume(in.Pos(), "mpi.Allgatherv is simulated as Allgather with this rank's block size on every rank")
	case "Scan", "Exscan":
		// Package mpi gathers every rank's buffer and combines the
		// prefix: an Allgather, whose contributions are reductions'.
		op.Kind, op.Bytes, op.Prefix = OpAllgather, bytesOf(1), PrefixScan
		op.Send = reduceContribution(args[1], args[3])
		if name == "Exscan" {
			op.Prefix = PrefixExscan
			if rank == 0 {
				break // the first member's buffer is left as it was
			}
		}
		op.Fault = r.received(in.Pos(), name, args[2])
		op.Recv = receiveInto(args[2])
	case "Alltoall", "Alltoallv":
		op.Kind = OpAlltoall
		if size > 0 {
			op.Bytes = bytesOf(1) / size
		}
		recv := 2
		if name == "Alltoallv" {
			recv = 4
			r.assume(in.Pos(), "mpi.Alltoallv is simulated as Alltoall with this rank's average block size")
		}
		op.Fault = r.received(in.Pos(), name, args[recv])
		if name == "Alltoall" {
			op.Send, op.Recv = payloadUpTo(args[1], perMember(maxGathered, size)), receiveUpTo(args[2], maxGathered)
		}
	default:
		return op, false, r.errorf(in.Pos(), "unsupported mpi function %s", name)
	}
	if err != nil {
		return op, false, err
	}
	r.await = wait
	return op, true, nil
}

// commOf is the communicator of an mpi call whose first argument is one:
// nil for the world.
func (r *ssaRank) commOf(in ssa.CallInstruction, name string, c value) (*Group, error) {
	if c.k == vNil {
		return nil, r.errorf(in.Pos(), "mpi.%s on a nil communicator: Split returns nil to the ranks that pass a negative color (mpi.Undefined)", name)
	}
	g, ok := r.groupOf(c)
	if !ok {
		return nil, r.errorf(in.Pos(), "mpi.%s: the communicator is not known to the interpreter", name)
	}
	return g, nil
}

// groupOf is the communicator a comm value stands for (nil: the world),
// if it is one: its i is 0 for the world, else 1 + the index in r.groups.
func (r *ssaRank) groupOf(c value) (*Group, bool) {
	if c.k != vOpaque || c.str() != nameComm || c.i < 0 || int(c.i) > len(r.groups) {
		return nil, false
	}
	if c.i == 0 {
		return nil, true
	}
	return r.groups[c.i-1], true
}

// rankSize are the rank's number in g and g's size (the world's for nil).
func (r *ssaRank) rankSize(g *Group) (rank, size int) {
	if g == nil {
		return r.rank, r.size
	}
	return g.index[r.rank], g.Size()
}

// isRequest gives a non-blocking call its request.
func (r *ssaRank) isRequest(f *frame, op *Op) {
	r.nextReq++
	op.Req = int(r.nextReq)
	r.set(f, value{k: vOpaque, sp: &nameRequest, i: r.nextReq})
}

// finishCall stores the result of the completed MPI call.
func (r *ssaRank) finishCall(res Result) {
	w := r.await
	r.await = nil
	if w != nil && w.testReq != 0 && !res.Pending {
		if r.testedDone == nil {
			r.testedDone = map[int]Result{}
		}
		r.testedDone[w.testReq] = res
	}
	if w == nil || w.unused || len(r.stack) == 0 {
		return
	}
	f := r.top()
	switch {
	case w.split:
		if res.Group == nil {
			f.env[w.dst] = nilValue
			return
		}
		r.groups = append(r.groups, res.Group)
		f.env[w.dst] = value{k: vOpaque, sp: &nameComm, i: int64(len(r.groups))}
	case w.status:
		if g := w.group; g != nil && res.Source >= 0 {
			res.Source = g.index[res.Source]
		}
		st := statusValue(res, w.elemSize)
		if w.tuple { // Test: (Status, bool)
			f.env[w.dst] = tuple(st, boolv(!res.Pending))
		} else {
			f.env[w.dst] = st
		}
	case w.lost:
		f.env[w.dst] = unknown
	case w.statuses > 0:
		o := newObject(unknownOf(types.NewStruct(nil, nil)), nil)
		n := int64(w.statuses)
		f.env[w.dst] = value{k: vSlice, obj: o, n: n, c: n}
	}
}

func fnResults(call ssa.CallInstruction) int {
	return call.Common().Signature().Results().Len()
}

func statusValue(res Result, elemSize int) value {
	// One allocation for the object and its cells: every completed
	// receive makes one.
	so := &struct {
		o     object
		cells [3]value
	}{cells: [3]value{intv(int64(res.Source)), intv(int64(res.Tag)), intv(int64(res.Bytes / max(elemSize, 1)))}}
	so.o = object{def: unknown, dense: so.cells[:]}
	return value{k: vStruct, obj: &so.o}
}

// mpiName is the name of a function of package mpi, of the generic
// origin for an instance (Send, not Send[float64]).
func mpiName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		return o.Name()
	}
	return fn.Name()
}

// mpiSite is the site of an MPI call at pos as profiles and timelines
// name it: "file.go:line".
func mpiSite(fset *token.FileSet, pos token.Pos) string {
	at := fset.Position(pos)
	return fmt.Sprintf("%s:%d", baseName(at.Filename), at.Line)
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == '\\' {
			return path[i+1:]
		}
	}
	return path
}

// profiledBroadcast puts in buf, the buffer of a Bcast at site, the
// values every call there broadcast in the profiled run, where the
// interpreter does not know them: sizes or parameters the root read from
// a file, drawn at random, or received. The root fills the elements it
// does not know, and notes the assumption; the other ranks fill their
// buffer, which the root's payload then overwrites when it knows it.
func (r *ssaRank) profiledBroadcast(in ssa.CallInstruction, sd SiteDataer, site string, buf value, root bool) {
	if buf.k != vSlice || buf.obj == nil || buf.n <= 0 || buf.n > maxPayload {
		return
	}
	data, ok := sd.SiteData(site, "Bcast")
	st, isSlice := in.Common().Args[1].Type().Underlying().(*types.Slice)
	if !ok || !isSlice {
		return
	}
	vals, ok := broadcastValues(data, st.Elem(), buf.n)
	if !ok {
		return
	}
	filled := false
	for j, v := range vals {
		if !root || buf.obj.get(buf.i+int64(j)).k == vUnknown {
			buf.obj.set(buf.i+int64(j), v)
			filled = filled || root
		}
	}
	if filled {
		r.assume(in.Pos(), "mpi.Bcast: the root does not know what it broadcasts (read from a file, drawn at random, received); taken as what every call here broadcast in the profiled run, %s", formatValues(vals))
	}
}

// broadcastValues decodes data, a profiled Bcast's payload, as n
// elements of type elem; false unless it holds exactly that many (a
// buffer of one count per rank has another length at another P) of a
// type decodeElem knows.
func broadcastValues(data []byte, elem types.Type, n int64) ([]value, bool) {
	es := int(elemSizes.Sizeof(elem))
	if es <= 0 || int64(len(data)) != int64(es)*n {
		return nil, false
	}
	vals := make([]value, n)
	for j := range vals {
		v, ok := decodeElem(data[j*es:(j+1)*es], elem)
		if !ok {
			return nil, false
		}
		vals[j] = v
	}
	return vals, true
}

// elemSizes are the sizes of the types package mpi lays out, on the
// 64-bit platforms the profiles come from.
var elemSizes = types.SizesFor("gc", "amd64")

// decodeElem is the value of an element of type t held in b, as package
// mpi lays it out (little-endian); false for types other than integers
// and floats, or a size that is not t's.
func decodeElem(b []byte, t types.Type) (value, bool) {
	bt, ok := t.Underlying().(*types.Basic)
	if !ok {
		return value{}, false
	}
	var u uint64
	switch len(b) {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	default:
		return value{}, false
	}
	info, size := bt.Info(), len(b)
	switch {
	case info&types.IsFloat != 0 && size == 8:
		return floatv(math.Float64frombits(u)), true
	case info&types.IsFloat != 0 && size == 4:
		return floatv(float64(math.Float32frombits(uint32(u)))), true
	case info&types.IsInteger != 0 && info&types.IsUnsigned != 0:
		return intv(int64(u)), true
	case info&types.IsInteger != 0:
		shift := 64 - 8*size // sign-extend
		return intv(int64(u<<shift) >> shift), true
	}
	return value{}, false
}

// formatValues writes vals for a note: [2000000 40].
func formatValues(vals []value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// maxPayload bounds the elements a message carries as values: small
// messages (a task number, a flag, sizes) steer programs; large ones are
// data the interpreter does not keep.
const maxPayload = 64

// payload is what a send of buf carries: its elements when it is a small
// slice with at least one known element, else nil (the receive buffer is
// unknown already: a halo of computed data need not be copied).
func payload(buf value) any { return payloadUpTo(buf, maxPayload) }

// payloadUpTo is payload with another bound on the elements: a root's
// buffer of a Scatter, or a buffer of an Alltoall, holds a block per rank.
func payloadUpTo(buf value, limit int64) any {
	if buf.k != vSlice || buf.obj == nil || buf.n > limit || buf.obj.allUnknown() {
		return nil
	}
	known := false
	for j := range buf.n {
		known = known || buf.obj.get(buf.i+j).k != vUnknown
	}
	if !known {
		return nil
	}
	vals := make([]value, buf.n)
	for j := range vals {
		vals[j] = copyValue(buf.obj.get(buf.i + int64(j)))
	}
	return vals
}

// receiveInto is where a receive into buf puts a payload: buf, when it is
// a small slice.
func receiveInto(buf value) any { return receiveUpTo(buf, maxPayload) }

// receiveUpTo is buf when it is a known slice of at most limit elements.
func receiveUpTo(buf value, limit int64) any {
	if buf.k != vSlice || buf.obj == nil || buf.n > limit {
		return nil
	}
	return buf
}

// ReceiveData implements DataReceiver: the payload's values, as far as
// the receive buffer holds them; a reduction's or gather's contributions
// combined.
func (r *ssaRank) ReceiveData(into, data any) {
	buf, ok1 := into.(value)
	if c, ok := data.(Contributions); ok1 && ok {
		data, ok = combine(c)
		if !ok {
			return
		}
	}
	vals, ok2 := data.([]value)
	if !ok1 || !ok2 || buf.obj == nil {
		return
	}
	for j := range min(int64(len(vals)), buf.n) {
		buf.obj.set(buf.i+j, copyValue(vals[j]))
	}
}

// guessedNote is what an error on a value the program computed adds when
// the rank decided branches by profiled frequencies before it: the value
// may follow a guessed arm (a pivot's row, never found where the search
// compared values the interpreter does not know, left at -1).
func (r *ssaRank) guessedNote() string {
	if r.guesses == 0 || r.guessBlock == nil {
		return ""
	}
	at := r.shared.prog.Fset.Position(lastPos(r.guessBlock, len(r.guessBlock.Instrs)))
	return fmt.Sprintf("; rank %d decided %d branches on data it does not know by their profiled frequencies, the last at %s:%d, and what it computed after may follow a guessed arm: partners chosen from data (a pivot's owner) cannot be predicted; make them computable from what the rank knows (for example the diagonal's owner) to predict the pattern",
		r.rank, r.guesses, baseName(at.Filename), at.Line)
}
