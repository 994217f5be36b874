package profiler

import (
	"go/ast"
	"go/types"
)

// region is a target as the instrumenter placed it: its probe index, its
// static parent and what the timer policy needs to know about it.
type region struct {
	Target
	Index  int
	Parent int // static parent region, -1 at the top
	Line   int // first line of Node
	End    int // last line of Node

	callExpr *ast.CallExpr // Call: the call
	callee   *types.Func   // Call: static callee, nil if dynamic
	lib      bool          // Call: the callee is outside the analysed packages
	units    bool          // Call, lib: counts the lengths of its slice and string arguments as iterations (argUnits)
	inline   bool          // Call: timed in place, inside an expression (Node is the call)
	mpiArgs  bool          // Call, inline: an MPI call among its arguments, its MPI time
	declBody bool          // FuncBody: the body of a declared function
	holdsMPI bool          // calls an MPI operation, directly or through the program's functions (markMPIHolders)
	rank     bool          // FuncBody: a function literal passed to mpi.Main, Run or Launch
	lit      bool          // inside a function literal that is not a rank body: never timed
	decl     *types.Func   // enclosing declared function
	outer    bool          // Loop: not nested in another loop of its function
	vec      bool          // Loop: coarse iterations, may get per-iteration times
	vecProbe bool          // Loop: instrumented for per-iteration times
	counted  bool          // Loop: trip count not known at entry (counted per iteration): may depend on data
	tight    bool          // Loop: its body makes no call (callFree): probes inside would change its code
	inTight  bool          // inside a tight loop of its function: never timed, so the timing binary has no probe there

	// target is what a dynamic call (callee nil) calls, where the syntax
	// tells: the one method of the program an interface method can be
	// (*types.Func), or the function literal a variable holds
	// (*ast.FuncLit); nil if unknown.
	target any
	// dynSig is the signature a dynamic call whose target is unknown
	// calls (of the function value, or the interface method without its
	// receiver): what countWorkUnits matches kernels against.
	dynSig *types.Signature
	fnLit  *ast.FuncLit // the function literal the region is in, when not a rank body

	// noProbe regions have no probe: their count is the iterations of
	// loop derivedFrom, less the count of derivedMinus (if >= 0).
	noProbe      bool
	derivedFrom  int
	derivedMinus int
}

// funcUse is what the instrumenter learnt about a user function's uses.
type funcUse struct {
	sites   []int // call regions calling it; -1 for calls that are no region
	byValue bool  // used other than by a direct call
}
