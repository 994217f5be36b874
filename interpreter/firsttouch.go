package interpreter

import (
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// FirstTouch prices the page faults of receives into fresh memory: a
// large buffer that nothing has written yet gets its pages from the
// operating system when it is first written, and an MPI receive that
// writes it pays for that (megabytes of it cost milliseconds on some
// machines). The program's own first writes are in its profiled compute
// times already.
type FirstTouch struct {
	PageSize int     // bytes
	PageTime float64 // seconds per page for this rank, its node's concurrent faults included
	// InTransfer puts the faults of a receive that copies into the
	// buffer (every receive but a reduction's, whose rank writes its
	// result itself) inside the transfers that write it (Op.Fault):
	// the copy that first writes a page waits for its fault, so a
	// rendezvous sender (the goroutine backend's blocking sends, a
	// single-copy MPI) or a receiver copying out of an eager buffer
	// pays it, and the levels of a Bcast tree pay theirs one after
	// another. Without it they are compute before the operation, which
	// is what ranks sharing cores see: there the cores are the
	// bottleneck, whichever rank's thread takes the fault.
	InTransfer bool
}

func (ft FirstTouch) on() bool { return ft.PageSize > 0 && ft.PageTime > 0 }

// largeAlloc is the size from which Go gives an allocation pages of its
// own, fresh from the operating system while the heap grows; smaller ones
// share pages that are most likely touched already.
const largeAlloc = 32 << 10

// freshPages tracks which pages of a fresh allocation were written.
type freshPages struct {
	elemSize int64
	pageSize int64
	pages    int64      // the allocation's pages
	touched  []pageSpan // sorted, disjoint, not adjacent
	covered  int64      // pages in touched
}

type pageSpan struct{ lo, hi int64 }

// markFresh makes the allocation s of make-site in fresh when it is large,
// and the site's first of this rank: later ones most likely reuse memory
// the collector freed (a buffer made every step), which is touched
// already.
func (r *ssaRank) markFresh(in *ssa.MakeSlice, s value) {
	if s.k != vSlice || s.obj == nil || s.obj.elem == nil {
		return
	}
	es := sizes.Sizeof(s.obj.elem)
	if es <= 0 || s.c*es < largeAlloc || r.madeAt[in] {
		return
	}
	if r.madeAt == nil {
		r.madeAt = map[*ssa.MakeSlice]bool{}
	}
	r.madeAt[in] = true
	ps := int64(r.opts.FirstTouch.PageSize)
	s.obj.fresh = &freshPages{elemSize: es, pageSize: ps, pages: (s.c*es + ps - 1) / ps}
}

// touch marks elements [lo, hi) of the allocation written and returns how
// many of their pages were not written before.
func (fp *freshPages) touch(lo, hi int64) int64 {
	if hi <= lo {
		return 0
	}
	p0, p1 := lo*fp.elemSize/fp.pageSize, (hi*fp.elemSize+fp.pageSize-1)/fp.pageSize
	p0, p1 = max(p0, 0), min(p1, fp.pages)
	if p1 <= p0 {
		return 0
	}
	// The spans that overlap or abut [p0, p1) merge with it.
	i := sort.Search(len(fp.touched), func(i int) bool { return fp.touched[i].hi >= p0 })
	j := i
	merged := pageSpan{p0, p1}
	old := int64(0)
	for j < len(fp.touched) && fp.touched[j].lo <= p1 {
		t := fp.touched[j]
		old += max(0, min(t.hi, p1)-max(t.lo, p0))
		merged.lo, merged.hi = min(merged.lo, t.lo), max(merged.hi, t.hi)
		j++
	}
	fresh := p1 - p0 - old
	if j == i { // nothing to merge with: insert in place
		fp.touched = append(fp.touched, pageSpan{})
		copy(fp.touched[i+1:], fp.touched[i:])
		fp.touched[i] = merged
	} else {
		fp.touched[i] = merged
		fp.touched = append(fp.touched[:i+1], fp.touched[j:]...)
	}
	fp.covered += fresh
	return fresh
}

// received charges the first touch of the part of buffer buf that an MPI
// receive writes, then makes that memory unknown. With
// FirstTouch.InTransfer it returns the faults' seconds for the operation
// to carry (Op.Fault) instead, but for reductions.
func (r *ssaRank) received(pos token.Pos, name string, buf value) (fault float64) {
	o := buf.obj
	if buf.k != vSlice || o == nil || o.fresh == nil {
		havocValue(buf)
		return 0
	}
	if pages := o.touch(buf.i, buf.i+buf.n); pages > 0 {
		t := float64(pages) * r.opts.FirstTouch.PageTime
		if r.opts.FirstTouch.InTransfer && name != "Allreduce" && name != "Reduce" {
			fault = t
		} else {
			r.charge(t, PageFaultsLabel)
		}
		r.assume(pos, "mpi.%s receives into fresh memory: its first touch costs a page fault per page (the machine's page_faults)", name)
	}
	o.forget()
	return fault
}

// receivedAt is received for a rooted collective: Bcast writes the
// buffers of the ranks other than root, Reduce and Gather(v) root's
// alone; the other buffers do not change.
func (r *ssaRank) receivedAt(pos token.Pos, name string, buf value, root int) float64 {
	if (root == r.rank) == (name != "Bcast") {
		return r.received(pos, name, buf)
	}
	return 0
}
