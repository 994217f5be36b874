package model

import (
	"fmt"
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/ssa"
)

// The JSON form of control trees (predict model --json); the schema is
// documented in docs/model-json.md. Field order and content are
// deterministic.

// JSONFunc is one function and its trees.
type JSONFunc struct {
	Name    string      `json:"name"`
	SSAName string      `json:"ssa_name"`
	Pos     string      `json:"pos"`
	Tree    *JSONRegion `json:"tree"`
	Recover *JSONRegion `json:"recover,omitempty"`
}

// JSONRegion is a region; Leaves only for kind "basic".
type JSONRegion struct {
	Kind     string        `json:"kind"`
	ID       string        `json:"id"`
	Pos      string        `json:"pos"`
	Node     string        `json:"node,omitempty"`
	Entry    int           `json:"entry"`
	Blocks   []int         `json:"blocks"`
	Edges    [][2]int      `json:"edges,omitempty"`
	Children []*JSONRegion `json:"children,omitempty"`
	Leaves   []*JSONLeaf   `json:"leaves,omitempty"`
}

// JSONLeaf is a segment of a basic block.
type JSONLeaf struct {
	Kind   string   `json:"kind"`
	ID     string   `json:"id"`
	Pos    string   `json:"pos"`
	Start  int      `json:"start"`
	End    int      `json:"end"`
	Mode   string   `json:"mode,omitempty"`
	Callee string   `json:"callee,omitempty"`
	MPI    *JSONMPI `json:"mpi,omitempty"`
}

// JSONMPI is an MPI operation with its operands.
type JSONMPI struct {
	Op        string         `json:"op"`
	SendBytes string         `json:"send_bytes,omitempty"`
	RecvBytes string         `json:"recv_bytes,omitempty"`
	Args      []*JSONOperand `json:"args,omitempty"`
}

// JSONOperand is an argument of an MPI call.
type JSONOperand struct {
	Role  string `json:"role"`
	Expr  string `json:"expr"`
	Value string `json:"value"`
}

// ToJSON converts f's trees to their JSON form.
func ToJSON(f *Func) *JSONFunc {
	jf := &JSONFunc{Name: f.Name, SSAName: f.SSA.String(), Pos: posString(f.Fset, f.SSA.Pos()), Tree: jsonRegion(f.Tree)}
	if f.Recover != nil {
		jf.Recover = jsonRegion(f.Recover)
	}
	return jf
}

func posString(fset *token.FileSet, p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	at := fset.Position(p)
	return shortPos(filepath.Base(at.Filename), at.Line, at.Column)
}

func jsonRegion(r *Region) *JSONRegion {
	fset := r.Func.Fset
	jr := &JSONRegion{Kind: r.Kind.String(), ID: r.ID(), Pos: posString(fset, r.Pos()), Entry: r.Entry.Index, Edges: r.Edges}
	if n := r.Node(); n != nil {
		jr.Node = fmt.Sprintf("%T", n)
	}
	for _, b := range r.Blocks {
		jr.Blocks = append(jr.Blocks, b.Index)
	}
	for _, c := range r.Children {
		jr.Children = append(jr.Children, jsonRegion(c))
	}
	for _, l := range r.Leaves {
		jl := &JSONLeaf{Kind: l.Kind.String(), ID: l.ID(), Pos: posString(fset, l.Pos()), Start: l.Start, End: l.End}
		switch l.Call.(type) {
		case *ssa.Call:
			jl.Mode = "call"
		case *ssa.Go:
			jl.Mode = "go"
		case *ssa.Defer:
			jl.Mode = "defer"
		}
		if l.Callee != nil {
			jl.Callee = l.Callee.String()
		}
		if m := l.MPI; m != nil {
			jm := &JSONMPI{Op: m.Op}
			if m.Send != nil {
				jm.SendBytes = m.Send.SizeExpr()
			}
			if m.Recv != nil {
				jm.RecvBytes = m.Recv.SizeExpr()
			}
			for _, a := range m.Args {
				jm.Args = append(jm.Args, &JSONOperand{Role: a.Role, Expr: a.Source(), Value: a.Value.Name()})
			}
			jl.MPI = jm
		}
		jr.Leaves = append(jr.Leaves, jl)
	}
	return jr
}
