// Package prediction wires parpredict's analyses into predictions: it
// turns a program's model (package model), its loop-nest reduction plan
// (loopnest) and a profile (profiler) into the Oracle the interpreter
// consults, and sweeps process counts and placements over the interpreter
// with the communication model (commmodel, commmodel/simnet) to produce
// speedup reports (report).
//
//	Oracle          block costs, reduced nests, branch frequencies and library call costs
//	Speedup         the sweep behind `predict speedup`
//	SpeedupOptions  what to predict: package, arguments, P and ppn lists, machine, profile
//
// How profiled times become model times is described in docs/prediction.md.
package prediction
