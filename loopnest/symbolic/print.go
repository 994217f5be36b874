package symbolic

import (
	"strconv"
	"strings"
)

func (c Const) String() string { return strconv.FormatInt(int64(c), 10) }

func (s *Sym) String() string { return s.Name }

func (b *Binary) String() string {
	var sb strings.Builder
	writeOperand(&sb, b.X, b.prec(), false)
	sb.WriteString(b.Op.String())
	// The right operand needs parentheses at equal precedence unless the
	// operators make it associative (a-(b-c), a/(b*c), a*(b/c) with
	// truncating division); constants that are
	// negative also need them (a-(-1)).
	writeOperand(&sb, b.Y, b.prec(), !(b.Op == Add || b.Op == Mul && isOp(b.Y, Mul)))
	return sb.String()
}

func writeOperand(sb *strings.Builder, e Expr, prec int, strict bool) {
	paren := e.prec() < prec || (strict && e.prec() == prec)
	if c, ok := e.(Const); ok && c < 0 {
		paren = true
	}
	if paren {
		sb.WriteByte('(')
	}
	sb.WriteString(e.String())
	if paren {
		sb.WriteByte(')')
	}
}

func (c *Call) String() string {
	if c.Fn == Geometric {
		return geomString(c)
	}
	var sb strings.Builder
	sb.WriteString(c.Fn.String())
	sb.WriteByte('(')
	for i, a := range c.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(a.String())
	}
	sb.WriteByte(')')
	return sb.String()
}

func isOp(e Expr, op Op) bool {
	b, ok := e.(*Binary)
	return ok && b.Op == op
}
