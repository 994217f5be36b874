package symbolic

// Symbols returns the distinct symbols of e (by name and the SSA value
// they stand for: a callee's loop restated in its caller's terms can hold
// two n's), in order of first appearance, not looking into definitions.
func Symbols(e Expr) []*Sym {
	var out []*Sym
	type key struct {
		name  string
		value any
	}
	seen := map[key]bool{}
	var walk func(Expr)
	walk = func(e Expr) {
		switch e := e.(type) {
		case *Sym:
			if k := (key{e.Name, e.Value}); !seen[k] {
				seen[k] = true
				out = append(out, e)
			}
		case *Binary:
			walk(e.X)
			walk(e.Y)
		case *Call:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	if e != nil {
		walk(e)
	}
	return out
}

// Uses reports whether e, or the definition of any symbol in it, contains
// a symbol for which pred holds.
func Uses(e Expr, pred func(*Sym) bool) bool {
	switch e := e.(type) {
	case *Sym:
		if pred(e) || e.Def != nil && Uses(e.Def, pred) {
			return true
		}
		if e.Mem != nil {
			for _, st := range e.Mem.Steps {
				if st.Index != nil && Uses(st.Index, pred) {
					return true
				}
			}
		}
		return false
	case *Binary:
		return Uses(e.X, pred) || Uses(e.Y, pred)
	case *Call:
		for _, a := range e.Args {
			if Uses(a, pred) {
				return true
			}
		}
	}
	return false
}
