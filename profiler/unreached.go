package profiler

// fillUnreached gives the regions and MPI call sites that the profiled
// run never reached the numbers of the smallest contention run that did
// (runs[i] is the run with ppn[i] ranks), marked with its rank count
// (Region.Ranks, MPISite.Ranks). Code that runs only with more ranks than
// the profiled run had (the merges after a recursive split, an exchange
// skipped at one rank) then has branch frequencies, trip counts and
// times per iteration, where it would have had none. Counts and times
// stay that run's, summed over its ranks; what the prediction takes from
// them are ratios (per execution, per iteration, per entry), except where
// it reads them per rank, which Ranks is for. Regions that hold MPI calls
// are left out (markMPIHolders).
func (p *Profile) fillUnreached(ppn []int, runs []*aggregator) {
	missing := map[string]int{}
	for i, r := range p.Regions {
		if r.Execs == 0 {
			missing[r.ID] = i
		}
	}
	type siteKey struct{ site, op string }
	have := map[siteKey]bool{}
	for _, s := range p.MPI {
		have[siteKey{s.Site, s.Op}] = true
	}
	for i, k := range ppn {
		if k <= max(p.Meta.NP, 1) || i >= len(runs) || runs[i] == nil {
			continue
		}
		if len(missing) > 0 {
			for ri, r := range runs[i].regions() {
				j, ok := missing[r.ID]
				if !ok || r.Execs == 0 || runs[i].in.Regions[ri].holdsMPI {
					continue
				}
				// The vectors of per-iteration times come from the
				// profiled run's vector runs only.
				r.Imbalance, r.Ranks = nil, k
				p.Regions[j] = r
				delete(missing, r.ID)
			}
		}
		for _, s := range runs[i].sites {
			if key := (siteKey{s.Site, s.Op}); !have[key] && s.Calls > 0 {
				s.Ranks = k
				p.MPI = append(p.MPI, s)
				have[key] = true
			}
		}
	}
	sortSites(p.MPI)
	p.reindex()
}
