package model

// Kind is the kind of a region of a control tree. The composite kinds are
// those of structural analysis (Sharir; Muchnick, section 7.7); Basic is a
// leaf that stands for one SSA basic block.
type Kind int

const (
	Basic       Kind = iota // one basic block, split into segments (leaves)
	Block                   // a sequence of regions
	IfThen                  // a two-way branch with one arm
	IfThenElse              // a two-way branch with two arms
	Case                    // a multi-way branch (a switch or select statement)
	Proper                  // an acyclic single-entry region of no simpler shape
	SelfLoop                // a region whose single child branches to itself
	WhileLoop               // a header that tests and a body that goes back to it
	NaturalLoop             // any other loop with a dominating header
	Improper                // a multi-entry cycle (from goto) with its minimal single-entry closure
)

var kindNames = [...]string{
	Basic:       "basic",
	Block:       "block",
	IfThen:      "if-then",
	IfThenElse:  "if-then-else",
	Case:        "case",
	Proper:      "proper",
	SelfLoop:    "self-loop",
	WhileLoop:   "while-loop",
	NaturalLoop: "natural-loop",
	Improper:    "improper",
}

// idNames are the short kind words used in region IDs. All loop kinds share
// "loop" so an ID names the statement, not the shape analysis found for it.
var idNames = [...]string{
	Basic:       "bb",
	Block:       "seq",
	IfThen:      "if",
	IfThenElse:  "if",
	Case:        "switch",
	Proper:      "proper",
	SelfLoop:    "loop",
	WhileLoop:   "loop",
	NaturalLoop: "loop",
	Improper:    "improper",
}

// Kinds lists every region kind in a fixed order, for tables and counts.
var Kinds = []Kind{Basic, Block, IfThen, IfThenElse, Case, Proper, SelfLoop, WhileLoop, NaturalLoop, Improper}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "kind?"
	}
	return kindNames[k]
}

// IsLoop reports whether k is one of the loop kinds (self, while, natural).
func (k Kind) IsLoop() bool { return k == SelfLoop || k == WhileLoop || k == NaturalLoop }

// cyclic reports whether regions of kind k may contain an edge back to their
// own entry.
func (k Kind) cyclic() bool { return k.IsLoop() || k == Improper }

// LeafKind says what a segment of a basic block does.
type LeafKind int

const (
	Compute  LeafKind = iota // instructions without calls (builtins count as computation)
	UserCall                 // a static call of a function of the analysed packages
	LibCall                  // a static call of a function outside them
	DynCall                  // a call through an interface or function value
	MPICall                  // a call into the mpi package
)

var leafKindNames = [...]string{
	Compute:  "compute",
	UserCall: "call",
	LibCall:  "libcall",
	DynCall:  "dyncall",
	MPICall:  "mpi",
}

func (k LeafKind) String() string {
	if k < 0 || int(k) >= len(leafKindNames) {
		return "leafkind?"
	}
	return leafKindNames[k]
}
