package mpi

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

const pkgPrefix = "github.com/parpredict/parpredict/mpi."

// pcSites caches, per return address, the call site its frames resolve to
// outside this package ("" when they are all inside it). A traced program
// makes the same calls from the same few places millions of times, and
// resolving frames is most of what recording an event costs.
var pcSites sync.Map // uintptr -> string

// callSite is file:line of the innermost caller outside this package: the
// user's MPI call. It is computed on slow paths (blocking, errors) and for
// every traced event.
func callSite() string {
	// Unwinding costs per frame: look at the few nearest frames first,
	// which hold the user's call unless it came through a deep path.
	for _, depth := range []int{4, 64} {
		var pcs [64]uintptr
		n := runtime.Callers(2, pcs[:depth])
		for _, pc := range pcs[:n] {
			if site := pcSite(pc); site != "" {
				return site
			}
		}
		if n < depth {
			break
		}
	}
	return ""
}

// pcSite resolves one return address, with its inlined frames, to the
// innermost frame outside this package.
func pcSite(pc uintptr) string {
	if s, ok := pcSites.Load(pc); ok {
		return s.(string)
	}
	site := ""
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, pkgPrefix) && f.Function != "" {
			site = filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
			break
		}
		if !more {
			break
		}
	}
	pcSites.Store(pc, site)
	return site
}
