// Package callers gives the return addresses of the calling goroutine's
// frames, as runtime.Callers does, cheaply: on amd64 by following the
// frame pointers that Go keeps (a few loads) instead of running the
// unwinder (some 200 ns), which made finding an MPI call's site most of
// what tracing the call cost.
//
// The addresses are those of physical frames: a function inlined into
// another shares its frame, so runtime.CallersFrames on one of them
// gives only the innermost function. Callers that need every function
// resolve each address once with runtime.Callers and cache the answer
// (mpi's callSiteID). It is its own package because a package using cgo
// (mpi with the openmpi tag) cannot hold Go assembly.
package callers
