// Package model builds the static model of a Go SPMD program, the first
// half of the ParJava method: the control tree of every function of the
// analysed packages, from their SSA form, with basic blocks split at calls
// into segments and every MPI call described by its operation and operands.
//
// # Pipeline
//
// [Load] = [LoadPackages] (go/packages: syntax and types of the named
// packages; dependencies from export data) + [BuildSSA] (go/ssa with
// ssa.InstantiateGenerics; os.Exit, log.Fatal*, log.Panic*, runtime.Goexit
// and mpi's Comm.Abort are marked no-return with Program.SetNoReturn) +
// [Build] (the trees, one function per goroutine). Load and type errors come
// back as a *[LoadError] whose entries carry file:line:col positions.
//
// Analysed functions are those declared in the named packages (functions,
// methods, closures, package initializers) and the instances of their
// generic functions that are called; everything else is a library.
//
// # Control trees
//
// Trees come from structural analysis (Sharir; Muchnick, section 7.7) of
// the SSA control-flow graph. Each round reduces, in postorder: block,
// if-then, if-then-else and case regions; then proper regions (acyclic,
// single entry, one exit, found with postdominators inside the region's
// dominated set); then innermost loops, which are found from back edges and
// dominators (SSA block comments are never used for structure): self-loop,
// while-loop (a header that tests and one body node) or natural-loop; then
// improper regions for multi-entry cycles (goto), made of the cycle, its
// entries' nearest common dominator and the nodes between. A last-resort
// proper region always exists, so reduction ends on any graph. Branch arms
// may end in a return or a no-return call. Go's SSA has no multi-way branch,
// so a switch or select statement is a chain of tests; regions whose
// statement is a switch or select become one Case region.
//
// Blocks reachable only from a function's Recover block (where a recovered
// panic resumes) get a second tree, [Func.Recover].
//
// # Leaves
//
// A [Region] of kind [Basic] stands for one SSA block; its [Leaf] segments
// split the block at calls: [Compute] (no call; builtins count as
// computation), [UserCall] (static callee in the analysed packages),
// [LibCall] (static callee elsewhere), [DynCall] (interface method or
// function value) and [MPICall] (a function or method of package
// [MPIPath], generic instances included). go and defer calls are segments
// too (Leaf.Call is the *ssa.Go or *ssa.Defer). An [MPIOp] records the
// operation name and each argument's role, SSA value and source expression;
// [Buffer.SizeExpr] gives the message size as "len(buf)*elemsize".
//
// # IDs and syntax
//
// Every region and leaf has an ID "pkg.Func:word@file.go:+line:col": the
// function (closures "main.main$1", methods "heat.(*Grid).Swap", instances
// "pkg.F[int]"), a kind word (seq, if, switch, select, proper, loop,
// improper, bb; compute, call, libcall, dyncall, mpi.Op for leaves), and the
// position of the statement or call the node stands for, with the line
// counted from the function's first line so that edits elsewhere in the file
// do not change it. Repeats in one function get "#2", "#3", ... in tree
// order. Nothing outside the function enters an ID. Region.Node() is the
// statement (*ast.ForStmt or *ast.RangeStmt for loops, *ast.IfStmt,
// *ast.SwitchStmt, *ast.TypeSwitchStmt or *ast.SelectStmt for branches, the
// innermost enclosing statement otherwise); Leaf.Node() is the call. IDs and
// syntax (Node) are found on first use, per function.
//
// # Checking
//
// [Func.Check] verifies a function's trees: every block in exactly one
// Basic region, segments covering each block, children and blocks in
// agreement, every region entered only at its entry which dominates it
// (improper regions aside), each region's recorded child edges equal to the
// CFG edges between its children, the shape each kind requires, and unique
// IDs. The tests run it over every function of the standard library.
//
// # Main types
//
//	Program   the loaded packages, their SSA and all analysed functions (Funcs, Func(name))
//	Func      one function: SSA, Tree, Recover, syntax; BasicOf(block), LeafAt, Region(id), Leaf(id), Check
//	Region    a tree node: Kind, Entry, Blocks, Children, Parent, Edges, Node(), ID(); Loop() for loops
//	Kind      Basic, Block, IfThen, IfThenElse, Case, Proper, SelfLoop, WhileLoop, NaturalLoop, Improper
//	Leaf      a segment of a block: Kind, Block, Start, End, Call, Callee, MPI, Node(), ID()
//	MPIOp     an MPI call: Op, Args (role, value, expression), Send and Recv buffers
//	Loop      header, body, back edges and exits of a loop region
//
// [WriteTree] prints trees for people; [ToJSON] gives the form of
// docs/model-json.md.
package model
