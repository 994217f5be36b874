package mpi

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

const pkgPrefix = "github.com/parpredict/parpredict/mpi."

// callSite is file:line of the innermost caller outside this package: the
// user's MPI call. It is only computed on slow paths (tracing, blocking,
// errors).
func callSite() string {
	var pcs [24]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, pkgPrefix) && f.Function != "" {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}
