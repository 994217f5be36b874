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
// outside this package (a siteNames index, -1 when they are all inside
// it). A traced program makes the same calls from the same few places
// millions of times, and resolving frames is most of what recording an
// event costs.
var pcSites sync.Map // uintptr -> int32

// siteNames holds every call site seen, by index; siteIndex finds them.
var (
	siteMu    sync.Mutex
	siteNames []string
	siteIndex = map[string]int32{}
)

// callSite is file:line of the innermost caller outside this package: the
// user's MPI call. It is computed on slow paths (blocking, errors) and for
// every traced event.
func callSite() string { return siteName(callSiteID()) }

// callSiteID is callSite as a siteNames index (-1: none).
func callSiteID() int32 {
	// Unwinding costs per frame: look at the few nearest frames first,
	// which hold the user's call unless it came through a deep path.
	for _, depth := range []int{2, 64} {
		var pcs [64]uintptr
		n := runtime.Callers(3, pcs[:depth])
		for _, pc := range pcs[:n] {
			if site := pcSite(pc); site >= 0 {
				return site
			}
		}
		if n < depth {
			break
		}
	}
	return -1
}

func siteName(id int32) string {
	if id < 0 {
		return ""
	}
	siteMu.Lock()
	defer siteMu.Unlock()
	return siteNames[id]
}

// siteNamesNow returns the call sites seen so far, by index: a trace
// names its events' sites from it without taking the lock per event.
func siteNamesNow() []string {
	siteMu.Lock()
	defer siteMu.Unlock()
	return siteNames[:len(siteNames):len(siteNames)]
}

// pcSite resolves one return address, with its inlined frames, to the
// innermost frame outside this package.
func pcSite(pc uintptr) int32 {
	if s, ok := pcSites.Load(pc); ok {
		return s.(int32)
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
	id := int32(-1)
	if site != "" {
		siteMu.Lock()
		var ok bool
		if id, ok = siteIndex[site]; !ok {
			id = int32(len(siteNames))
			siteNames = append(siteNames, site)
			siteIndex[site] = id
		}
		siteMu.Unlock()
	}
	pcSites.Store(pc, id)
	return id
}
