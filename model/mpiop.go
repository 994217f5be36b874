package model

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// MPIPath is the import path of the SPMD package whose calls become MPI leaves.
const MPIPath = "github.com/parpredict/parpredict/mpi"

// MPIOp describes one call into the mpi package.
type MPIOp struct {
	Op   string // the function or method name: "Send", "Allreduce", "Barrier", ...
	Args []*Operand
	// Send and Recv are the message buffers (Bcast's buffer is both).
	Send, Recv *Buffer
}

// Operand is an argument of an MPI call: its role ("dest", "source",
// "root", "tag", "recvtag", "op", "counts", ...), its SSA value and, when the
// call is in source, the argument expression as written.
type Operand struct {
	Role  string
	Value ssa.Value
	Expr  ast.Expr
}

// Buffer is a message buffer: the slice value and its element type, so the
// message size in bytes is len(Value) * ElemSize.
type Buffer struct {
	Operand
	Elem     types.Type
	ElemSize int64
}

// Arg returns the operand with the given role, or nil.
func (m *MPIOp) Arg(role string) *Operand {
	for _, a := range m.Args {
		if a.Role == role {
			return a
		}
	}
	return nil
}

// Source returns the operand as it reads in source, or the SSA value's name.
func (o *Operand) Source() string {
	if o.Expr != nil {
		return types.ExprString(o.Expr)
	}
	if c, ok := o.Value.(*ssa.Const); ok {
		return c.Value.String()
	}
	return o.Value.Name()
}

// SizeExpr returns the message size in bytes as an expression over source
// names, for example "len(local)*8".
func (b *Buffer) SizeExpr() string {
	return fmt.Sprintf("len(%s)*%d", b.Source(), b.ElemSize)
}

// mpiRoles lists, per operation, the roles of the arguments after the
// communicator (or request) receiver.
var mpiRoles = map[string][]string{
	"Send":          {"send", "dest", "tag"},
	"Recv":          {"recv", "source", "tag"},
	"Sendrecv":      {"send", "dest", "tag", "recv", "source", "recvtag"},
	"Isend":         {"send", "dest", "tag"},
	"Irecv":         {"recv", "source", "tag"},
	"Bcast":         {"buf", "root"},
	"Reduce":        {"send", "recv", "op", "root"},
	"Allreduce":     {"send", "recv", "op"},
	"Gather":        {"send", "recv", "root"},
	"Gatherv":       {"send", "recv", "counts", "displs", "root"},
	"Scatter":       {"send", "recv", "root"},
	"Scatterv":      {"send", "counts", "displs", "recv", "root"},
	"Allgather":     {"send", "recv"},
	"Alltoall":      {"send", "recv"},
	"Alltoallv":     {"send", "sendcounts", "sdispls", "recv", "recvcounts", "rdispls"},
	"Allgatherv":    {"send", "recv", "counts", "displs"},
	"Scan":          {"send", "recv", "op"},
	"Exscan":        {"send", "recv", "op"},
	"Split":         {"color", "key"},
	"Abort":         {"code"},
	"BeginInterval": {"id"},
	"EndInterval":   {"id"},
}

// isMPI reports whether fn (or the generic function it instantiates) is
// declared in the mpi package.
func isMPI(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path() == MPIPath
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
		return obj.Pkg().Path() == MPIPath
	}
	return false
}

// mpiName is the operation name of an mpi function: its name without type
// arguments (methods by their method name).
func mpiName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		return o.Name()
	}
	return fn.Name()
}

// newMPIOp describes a call of the mpi function callee; call is the call
// syntax when known.
func newMPIOp(common *ssa.CallCommon, callee *ssa.Function, call *ast.CallExpr, sizes types.Sizes) *MPIOp {
	name := mpiName(callee)
	op := &MPIOp{Op: name}
	roles := mpiRoles[name]
	method := callee.Signature.Recv() != nil
	for i, role := range roles {
		ai := i + 1 // Args[0] is the communicator or the receiver
		if ai >= len(common.Args) {
			break
		}
		o := &Operand{Role: role, Value: common.Args[ai]}
		if call != nil && !callee.Signature.Variadic() {
			ei := ai
			if method {
				ei = ai - 1 // the receiver is not among the call's arguments
			}
			if ei < len(call.Args) {
				o.Expr = call.Args[ei]
			}
		}
		op.Args = append(op.Args, o)
		switch role {
		case "send", "recv", "buf":
			b := newBuffer(o, sizes)
			if b == nil {
				continue
			}
			if role != "recv" {
				op.Send = b
			}
			if role != "send" {
				op.Recv = b
			}
		}
	}
	return op
}

func newBuffer(o *Operand, sizes types.Sizes) *Buffer {
	s, ok := o.Value.Type().Underlying().(*types.Slice)
	if !ok {
		return nil
	}
	return &Buffer{Operand: *o, Elem: s.Elem(), ElemSize: sizes.Sizeof(s.Elem())}
}
