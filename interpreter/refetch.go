package interpreter

// refetchBytes is the working set a reduced nest brings back into a
// core's caches when it is the first compute of a rank resumed after an
// MPI operation: twice the memory it writes (what it reads beside it, a
// stencil's old field, a transpose's source block), the slices and
// arrays it is given directly; memory reached through fields is not
// counted.
func (r *ssaRank) refetchBytes(f *frame, rc *reduction) float64 {
	bytes := 0.0
	for i := range rc.writes {
		v := r.get(f, &rc.writes[i])
		if v.k != vSlice || v.obj == nil || v.obj.elem == nil || v.n <= 0 {
			continue
		}
		if es := sizes.Sizeof(v.obj.elem); es > 0 {
			bytes += float64(v.n) * float64(es)
		}
	}
	return 2 * bytes
}

// refetchCharge is what the reduced nest rc costs beyond its time when
// the rank has just resumed after an MPI operation on a core that ranks
// take turns on (ExecOptions.Refetch); the charge is made once per
// resumption.
func (r *ssaRank) refetchCharge(f *frame, rc *reduction) float64 {
	if r.opts.Refetch == nil || !r.resumed {
		return 0
	}
	r.resumed = false
	return r.opts.Refetch(r.refetchBytes(f, rc))
}
