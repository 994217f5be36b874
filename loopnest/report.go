package loopnest

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"github.com/parpredict/parpredict/loopnest/symbolic"
)

// Report is the plain, serialisable form of a Program's nests: what
// `predict loops --json` prints.
type Report struct {
	Functions []FuncReport `json:"functions"`
}

// FuncReport is one function's loops, parents before children.
type FuncReport struct {
	Name  string       `json:"name"`
	Pos   string       `json:"pos"`
	Loops []LoopReport `json:"loops"`
}

// LoopReport is one loop.
type LoopReport struct {
	ID      string    `json:"id"`
	Pos     string    `json:"pos"`
	Depth   int       `json:"depth"`
	Parent  string    `json:"parent,omitempty"`
	Counter *IVReport `json:"counter,omitempty"`
	// Index is the global iteration the body computes from a counter that
	// starts at a constant (Loop.Index), as Base + counter*Scale.
	Index         string         `json:"index,omitempty"`
	Trip          string         `json:"trip,omitempty"`
	Symbols       []SymbolReport `json:"symbols,omitempty"`
	BottomTest    bool           `json:"bottom_test,omitempty"`
	UpperBound    bool           `json:"upper_bound"`
	DataDependent bool           `json:"data_dependent"`
	RankSize      bool           `json:"rank_size"`
	Notes         []string       `json:"notes,omitempty"`
	MPI           []SiteReport   `json:"mpi,omitempty"`
	Calls         []SiteReport   `json:"calls,omitempty"`
	Effects       []SiteReport   `json:"effects,omitempty"`
	// CalleeLoops are the loops of functions called from the loop's own
	// code that its reduced nest counts on their own (Loop.Callees).
	CalleeLoops []CalleeLoopReport `json:"callee_loops,omitempty"`
	// Guards are the tests on the rank or rank count under which the
	// loop runs in an iteration of its parent (Loop.Guards).
	Guards  []string `json:"guards,omitempty"`
	Reduced bool     `json:"reduced"`
	Nest    string   `json:"nest,omitempty"` // the root of the reduced nest
	Reasons []string `json:"reasons,omitempty"`
}

// CalleeLoopReport is a callee's loop counted inside a reduced nest, its
// trip count in the caller's terms.
type CalleeLoopReport struct {
	ID     string             `json:"id"`
	Call   string             `json:"call"`
	Trip   string             `json:"trip"`
	Guards []string           `json:"guards,omitempty"`
	Inner  []CalleeLoopReport `json:"inner,omitempty"`
}

// IVReport is the counter of a loop.
type IVReport struct {
	Name string `json:"name"`
	Init string `json:"init,omitempty"`
	Step string `json:"step"`
}

// SymbolReport is a symbol of a trip count, with its definition when it
// stands for a value computed from others.
type SymbolReport struct {
	Name string           `json:"name"`
	Kind symbolic.SymKind `json:"kind"`
	Def  string           `json:"def,omitempty"`
}

// SiteReport is a call or effect.
type SiteReport struct {
	Name string `json:"name"`
	Pos  string `json:"pos"`
	Pure bool   `json:"pure,omitempty"`
	Via  string `json:"via,omitempty"`
}

// Report builds the serialisable report. Positions are file:line:col with
// the file's base name, so reports do not depend on where the code lives.
func (p *Program) Report() *Report {
	fset := p.Prog.Fset
	r := &Report{Functions: []FuncReport{}}
	for _, f := range p.Funcs {
		fr := FuncReport{Name: funcName(f.Fn), Pos: basePos(fset, f.Fn.Pos())}
		for _, l := range f.Loops {
			fr.Loops = append(fr.Loops, loopReport(fset, l))
		}
		r.Functions = append(r.Functions, fr)
	}
	return r
}

func loopReport(fset *token.FileSet, l *Loop) LoopReport {
	lr := LoopReport{
		ID: l.ID, Pos: basePos(fset, l.Pos), Depth: l.Depth,
		BottomTest: l.BottomTest, UpperBound: l.UpperBound, DataDependent: l.DataDependent, RankSize: l.RankSize,
		Notes: l.Notes, Reduced: l.Reduction.Reducible, Reasons: l.Reduction.Reasons,
	}
	if l.Parent != nil {
		lr.Parent = l.Parent.ID
	}
	if l.Reduction.Nest != nil {
		lr.Nest = l.Reduction.Nest.ID
	}
	if iv := l.Counter; iv != nil {
		lr.Counter = &IVReport{Name: iv.Name, Step: iv.StepString()}
		if l.First != nil {
			lr.Counter.Init = l.First.String()
		}
		if ix := l.Index; ix != nil {
			lr.Index = ix.Expr(iv.Name)
		}
	}
	if l.Trip != nil {
		lr.Trip = l.Trip.String()
		for _, s := range symbolic.Symbols(l.Trip) {
			sr := SymbolReport{Name: s.Name, Kind: s.Kind}
			if s.Def != nil {
				sr.Def = s.Def.String()
			}
			lr.Symbols = append(lr.Symbols, sr)
		}
	}
	lr.CalleeLoops = calleeLoops(fset, l.Callees)
	lr.Guards = guardStrings(l.Guards)
	lr.MPI = sites(fset, l.MPI)
	lr.Calls = sites(fset, l.Calls)
	lr.Effects = sites(fset, l.Effects)
	return lr
}

func calleeLoops(fset *token.FileSet, ls []*Loop) []CalleeLoopReport {
	var out []CalleeLoopReport
	for _, c := range ls {
		r := CalleeLoopReport{ID: c.ID, Call: basePos(fset, c.Inlined.Call.Pos()), Trip: c.Trip.String(), Guards: guardStrings(c.Guards)}
		r.Inner = calleeLoops(fset, append(append([]*Loop(nil), c.Inner...), c.Callees...))
		out = append(out, r)
	}
	return out
}

func guardStrings(gs []Guard) []string {
	var out []string
	for i := range gs {
		out = append(out, gs[i].String())
	}
	return out
}

func sites(fset *token.FileSet, ss []Site) []SiteReport {
	var out []SiteReport
	for _, s := range ss {
		out = append(out, SiteReport{Name: s.Name, Pos: basePos(fset, s.Pos), Pure: s.Pure, Via: s.Via})
	}
	return out
}

func basePos(fset *token.FileSet, p token.Pos) string {
	if !p.IsValid() {
		return "-"
	}
	pos := fset.Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people: per function, each loop indented
// by depth with its trip count, flags, communication, calls and the
// reduction decision.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for i, f := range r.Functions {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s)\n", f.Name, f.Pos)
		for _, l := range f.Loops {
			ind := strings.Repeat("  ", l.Depth)
			fmt.Fprintf(&b, "%sloop %s\n", ind, l.ID)
			ind += "    "
			trip := l.Trip
			if trip == "" {
				trip = "unknown"
			}
			fmt.Fprintf(&b, "%strips:   %s%s\n", ind, trip, flags(l))
			if l.Counter != nil {
				init := l.Counter.Init
				if init == "" {
					init = "?"
				}
				fmt.Fprintf(&b, "%scounter: %s from %s step %s\n", ind, l.Counter.Name, init, l.Counter.Step)
			}
			if l.Index != "" {
				fmt.Fprintf(&b, "%sindex:   %s (the iteration the body works on)\n", ind, l.Index)
			}
			for _, s := range l.Symbols {
				if s.Def != "" {
					fmt.Fprintf(&b, "%swhere:   %s = %s\n", ind, s.Name, s.Def)
				}
			}
			if len(l.MPI) > 0 {
				fmt.Fprintf(&b, "%smpi:     %s\n", ind, siteList(l.MPI, false))
			}
			if len(l.Calls) > 0 {
				fmt.Fprintf(&b, "%scalls:   %s\n", ind, siteList(l.Calls, true))
			}
			if len(l.Effects) > 0 {
				fmt.Fprintf(&b, "%seffects: %s\n", ind, siteList(l.Effects, false))
			}
			if len(l.Guards) > 0 && l.Reduced && l.Nest != l.ID {
				fmt.Fprintf(&b, "%sguard:   runs where %s\n", ind, strings.Join(l.Guards, " and "))
			}
			writeCalleeLoops(&b, ind, l.CalleeLoops)
			for _, n := range l.Notes {
				fmt.Fprintf(&b, "%snote:    %s\n", ind, n)
			}
			switch {
			case l.Reduced && l.Nest == l.ID:
				fmt.Fprintf(&b, "%sreduce:  yes, root of a reduced nest\n", ind)
			case l.Reduced:
				fmt.Fprintf(&b, "%sreduce:  yes, inside the nest %s\n", ind, l.Nest)
			default:
				fmt.Fprintf(&b, "%sreduce:  no: %s\n", ind, strings.Join(l.Reasons, "; "))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCalleeLoops lists callee loops a nest counts, nested ones
// indented under the loop or call they run in.
func writeCalleeLoops(b *strings.Builder, ind string, ls []CalleeLoopReport) {
	for _, c := range ls {
		where := ""
		if len(c.Guards) > 0 {
			where = ", where " + strings.Join(c.Guards, " and ")
		}
		fmt.Fprintf(b, "%scounts:  %s (called @%s), trips %s%s\n", ind, c.ID, c.Call[strings.Index(c.Call, ":")+1:], c.Trip, where)
		writeCalleeLoops(b, ind+"  ", c.Inner)
	}
}

func flags(l LoopReport) string {
	var fs []string
	if l.UpperBound {
		fs = append(fs, "upper bound")
	}
	if l.DataDependent {
		fs = append(fs, "data-dependent")
	}
	if l.RankSize {
		fs = append(fs, "depends on rank/size")
	}
	if l.BottomTest {
		fs = append(fs, "test after body")
	}
	if len(fs) == 0 {
		return ""
	}
	return "  [" + strings.Join(fs, ", ") + "]"
}

// siteList prints sites as name @line:col, once per name; with
// markImpure, calls outside the pure registry say so.
func siteList(ss []SiteReport, markImpure bool) string {
	var parts []string
	seen := map[string]bool{}
	for _, s := range ss {
		label := s.Name
		if s.Via != "" {
			label += " (in " + s.Via + ")"
		}
		if markImpure && !s.Pure {
			label += " (not pure)"
		}
		if seen[label] {
			continue
		}
		seen[label] = true
		if s.Via == "" && s.Pos != "-" {
			label += " @" + s.Pos[strings.Index(s.Pos, ":")+1:]
		}
		parts = append(parts, label)
	}
	return strings.Join(parts, ", ")
}
