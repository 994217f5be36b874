package loopnest

// Loop returns the loop with the given region ID, or nil.
func (p *Program) Loop(id string) *Loop {
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			if l.ID == id {
				return l
			}
		}
	}
	return nil
}

// Nests returns the roots of the reduced nests of the program, in order:
// what the interpreter skips, charging for each entry the iterations that
// Iterations gives times the measured cost of an iteration.
func (p *Program) Nests() []*Loop {
	var out []*Loop
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			if l.Reduction.Nest == l {
				out = append(out, l)
			}
		}
	}
	return out
}
