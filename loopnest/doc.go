// Package loopnest analyses the loop nests of a program's control trees:
// induction variables, symbolic trip counts, classification of each loop,
// and the reduction plan that tells the interpreter which nests it need not
// execute.
//
// For every loop region of the model (package model), or every natural loop
// that FindLoops finds when there is no model, the analysis finds
//
//   - the induction variables: header phis that start from a value defined
//     outside the loop and step by a constant (or by a positive loop-invariant
//     value such as Size(), for cyclic distributions);
//   - the counter: the induction variable that an exit test compares with a
//     bound that does not change in the loop (< <= > >= !=, either operand
//     order, either branch staying in the loop, tested before the body or,
//     as in go/ssa's rotated range-over-int loops, after it);
//   - the trip count, a symbolic.Expr over parameters, free variables,
//     Rank(), Size(), len and cap, values computed before the loop and
//     outer induction variables (triangular nests), exact with Go integer
//     semantics; range over slices, arrays and strings (len is an upper
//     bound for strings, which range over runes);
//   - flags: UpperBound when the loop can also leave by break, return,
//     goto or a labeled branch; DataDependent when the count needs values
//     computed in the loop (a convergence test) or loaded in an enclosing
//     loop, or left by an earlier loop; RankSize when the count depends on
//     Rank() or Size(), following parameters back to every call site;
//   - the MPI operations, calls (marked pure when the callee is in the
//     Registry or is a program function that only does pure things) and
//     other effects inside the loop, callees included.
//
// The reduction plan (Decision) is conservative: a nest is reduced when it
// contains no MPI, calls only pure functions, has no go, defer, channel or
// package-variable effects, its root's trip count is exact and known at
// entry, and none of its results decides a branch, feeds an MPI call or is
// returned as an integer. Inner loops of a reduced nest may be
// data-dependent: their time is part of the measured time of an iteration
// of the nearest counted loop above them. Iterations evaluates a reduced
// nest's counts with a rank's bindings, enumerating outer values for
// triangular nests.
//
// | type      | what it is                                                     |
// |-----------|----------------------------------------------------------------|
// | Program   | the nests of every function of some packages (Load, FromModel) |
// | Func      | one function's nest tree: Roots and all Loops, parents first   |
// | Loop      | a loop: ID (the model's region ID), counter, Trip, flags,      |
// |           | MPI, Calls, Effects and its reduction Decision                 |
// | IV        | an induction variable: phi, initial value, step                |
// | Decision  | reduced or not, the root of its reduced nest, the reasons      |
// | Shape     | what the analysis needs of a loop: ID, header, blocks (the     |
// |           | seam to the model: ModelLoops, FindLoops)                      |
// | Registry  | the pure functions a reduced nest may call (DefaultPure)       |
// | Analyzer  | analyses functions one at a time (Analyzer.Func)               |
// | Report    | the serialisable form printed by `predict loops`               |
//
// Not supported: generic functions are analysed only as their instances
// (as the model builds them); improper regions (irreducible cycles from
// goto) are not loops and are never reduced; values flowing through memory
// are not followed when deciding whether a nest's results steer later
// control flow (the interpreter treats loaded data as unknown); int64
// overflow of trip counts is not modelled.
package loopnest
