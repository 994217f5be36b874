package symbolic

// Substitute rebuilds e with each symbol s replaced by what repl returns
// for it: repl answers (replacement, true, nil) to replace s, (nil, false,
// nil) to keep it, or an error, which Substitute returns. A kept symbol
// with a definition gets a copy whose definition is substituted too, so
// that evaluation never falls back to the old one.
func Substitute(e Expr, repl func(*Sym) (Expr, bool, error)) (Expr, error) {
	switch e := e.(type) {
	case nil:
		return nil, nil
	case *Sym:
		r, ok, err := repl(e)
		if err != nil {
			return nil, err
		}
		if ok {
			return r, nil
		}
		if e.Def == nil && e.Mem == nil {
			return e, nil
		}
		c := *e
		if e.Def != nil {
			def, err := Substitute(e.Def, repl)
			if err != nil {
				return nil, err
			}
			c.Def = def
		}
		if e.Mem != nil {
			m := &MemPath{Base: e.Mem.Base, Steps: make([]MemStep, len(e.Mem.Steps))}
			for i, st := range e.Mem.Steps {
				m.Steps[i] = st
				if st.Index != nil {
					ix, err := Substitute(st.Index, repl)
					if err != nil {
						return nil, err
					}
					m.Steps[i].Index = ix
				}
			}
			c.Mem = m
		}
		return &c, nil
	case *Binary:
		x, err := Substitute(e.X, repl)
		if err != nil {
			return nil, err
		}
		y, err := Substitute(e.Y, repl)
		if err != nil {
			return nil, err
		}
		return &Binary{Op: e.Op, X: x, Y: y}, nil
	case *Call:
		args := make([]Expr, len(e.Args))
		for i, a := range e.Args {
			s, err := Substitute(a, repl)
			if err != nil {
				return nil, err
			}
			args[i] = s
		}
		return &Call{Fn: e.Fn, Args: args}, nil
	}
	return e, nil
}
