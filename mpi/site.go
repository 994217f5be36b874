package mpi

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/parpredict/parpredict/internal/callers"
)

const pkgPrefix = "github.com/parpredict/parpredict/mpi."

// pcSites caches, per program counter that runtime.Callers gives (one per
// function, inlined ones included), the call site it resolves to outside
// this package (a siteNames index, -1 when inside it): resolving a frame
// to its file and line is slow, and a program makes its calls from a few
// places.
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
//
// It follows the frame pointers (callers.PCs) to the first frame of a
// function outside this package, whose return address, with the inlining
// there, determines the site; the site is found once per such address
// with the unwinder (slowCallSiteID), which expands inlined calls (an
// mpi.Send inlined into the user's function shares its frame), and kept.
// Unwinding cost about 200 ns per call, most of what recording a traced
// call cost, and delayed the ranks waiting for it.
func callSiteID() int32 {
	var pcs [64]uintptr
	n := callers.PCs(pcs[:])
	for _, pc := range pcs[:n] {
		if s, ok := frameSites.Load(pc); ok {
			if s := s.(int32); s != inPackage {
				return s
			}
			continue
		}
		if inThisPackage(pc) {
			frameSites.Store(pc, inPackage)
			continue
		}
		s := slowCallSiteID()
		frameSites.Store(pc, s)
		return s
	}
	return slowCallSiteID()
}

// frameSites caches, per return address of a frame, the call site its
// function's frame resolves to (inPackage: a function of this package).
var frameSites sync.Map // uintptr -> int32

const inPackage int32 = -2

// inThisPackage reports whether return address pc is in a function of
// this package (the function itself, not one inlined into it).
func inThisPackage(pc uintptr) bool {
	f := runtime.FuncForPC(pc - 1)
	if f == nil {
		return false
	}
	// FuncForPC names the innermost inlined function at pc; the function
	// whose frame it is starts at its entry.
	if outer := runtime.FuncForPC(f.Entry()); outer != nil {
		f = outer
	}
	return strings.HasPrefix(f.Name(), pkgPrefix)
}

// slowCallSiteID is callSiteID by runtime.Callers, one entry per function,
// inlined ones included.
func slowCallSiteID() int32 {
	// Unwinding costs per frame: look at the few nearest frames first,
	// which hold the user's call unless it came through a deep path.
	for _, depth := range []int{4, 64} {
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
