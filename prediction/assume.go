package prediction

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/report"
)

func sortAssumptions(as []interpreter.Assumption) {
	sort.Slice(as, func(i, j int) bool {
		if as[i].Pos != as[j].Pos {
			return as[i].Pos < as[j].Pos
		}
		return as[i].What < as[j].What
	})
}

// caveats are a prediction's assumptions and notes as its report carries
// them.
func caveats(as []interpreter.Assumption, notes []string) report.Caveats {
	c := report.Caveats{Notes: notes}
	for _, a := range as {
		c.Assumptions = append(c.Assumptions, report.Assumption{Pos: a.Pos, What: a.What})
	}
	return c
}

// assumptionSet collects the assumptions of several simulations, each
// once, with the configurations that made them: a guess taken from a
// profile may differ by rank count (a branch frequency from the --ppn
// runs), and one line per configuration with nothing to tell them apart
// reads as the same branch listed twice.
type assumptionSet struct {
	configs []string // labels of the configurations added, in order
	by      map[interpreter.Assumption][]int
}

// add records the assumptions of the configuration labelled config
// ("P = 4").
func (s *assumptionSet) add(config string, as []interpreter.Assumption) {
	if s.by == nil {
		s.by = map[interpreter.Assumption][]int{}
	}
	i := slices.Index(s.configs, config)
	if i < 0 {
		i = len(s.configs)
		s.configs = append(s.configs, config)
	}
	for _, a := range as {
		if c := s.by[a]; len(c) == 0 || c[len(c)-1] != i {
			s.by[a] = append(c, i)
		}
	}
}

// sorted lists the set's assumptions in order of position. One made by
// every configuration is listed as it is. Those at one position that
// differ only in their numbers, each configuration giving one variant,
// become one line: the numbers that differ are named per configuration
// (one of them in its place, several as [a], [b] in theirs and their
// values after the text), the others stay in place. A sweep's count taken
// at each rank count ("taken as 200000, which gives the 200000 iterations
// ... at rank 0 of 2") was a line per configuration: 64 of them per site
// for --np 1:64. Any other made by some configurations only names them.
func (s *assumptionSet) sorted() []interpreter.Assumption {
	groups := map[[2]string][]variant{} // by position and the text around the numbers
	var out []interpreter.Assumption
	for a, configs := range s.by {
		if len(configs) == len(s.configs) {
			out = append(out, a)
			continue
		}
		if tmpl, values := numbers(a.What); len(values) > 0 {
			k := [2]string{a.Pos, tmpl}
			groups[k] = append(groups[k], variant{values, configs})
			continue
		}
		out = append(out, interpreter.Assumption{Pos: a.Pos, What: a.What + " (" + s.labels(configs) + ")"})
	}
	for k, vs := range groups {
		sort.Slice(vs, func(i, j int) bool { return vs[i].configs[0] < vs[j].configs[0] })
		seen := map[int]bool{}
		single := true // no configuration gives two variants
		for _, v := range vs {
			for _, c := range v.configs {
				single = single && !seen[c]
				seen[c] = true
			}
		}
		if !single || len(vs) == 1 {
			for _, v := range vs {
				out = append(out, interpreter.Assumption{Pos: k[0], What: fill(k[1], v.values) + " (" + s.labels(v.configs) + ")"})
			}
			continue
		}
		out = append(out, interpreter.Assumption{Pos: k[0], What: s.merged(k[1], vs)})
	}
	sortAssumptions(out)
	return out
}

// variant is an assumption's numbers (numbers) and the configurations
// that made it with them.
type variant struct {
	values  []string
	configs []int
}

// merged is the one line of variants vs of template tmpl: the numbers
// they share in place, the one that differs listed per configuration in
// its place, several named [a], [b], ... and listed after the text.
func (s *assumptionSet) merged(tmpl string, vs []variant) string {
	first := vs[0].values
	var differ []int
	for i := range first {
		for _, v := range vs {
			if v.values[i] != first[i] {
				differ = append(differ, i)
				break
			}
		}
	}
	inPlace := slices.Clone(first)
	if len(differ) == 1 {
		var parts []string
		for _, v := range vs {
			parts = append(parts, v.values[differ[0]]+" ("+s.labels(v.configs)+")")
		}
		inPlace[differ[0]] = strings.Join(parts, ", ")
		return fill(tmpl, inPlace)
	}
	names := make([]string, len(differ))
	for j, i := range differ {
		names[j] = "[" + string(rune('a'+j%26)) + "]"
		inPlace[i] = names[j]
	}
	var parts []string
	for _, v := range vs {
		vals := make([]string, len(differ))
		for j, i := range differ {
			vals[j] = v.values[i]
		}
		parts = append(parts, strings.Join(vals, ", ")+" ("+s.labels(v.configs)+")")
	}
	return fill(tmpl, inPlace) + "; " + strings.Join(names, ", ") + " = " + strings.Join(parts, "; ")
}

// fill puts values into tmpl's NULs in order.
func fill(tmpl string, values []string) string {
	for _, v := range values {
		tmpl = strings.Replace(tmpl, "\x00", v, 1)
	}
	return tmpl
}

// labels names the configurations with indexes cs (ascending), three or
// more consecutive ones of the sweep by the first and the last ("P = 2
// to P = 64").
func (s *assumptionSet) labels(cs []int) string {
	var names []string
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		if j-i >= 2 {
			names = append(names, s.configs[cs[i]]+" to "+s.configs[cs[j]])
		} else {
			for k := i; k <= j; k++ {
				names = append(names, s.configs[cs[k]])
			}
		}
		i = j + 1
	}
	return "at " + strings.Join(names, ", ")
}

// numbers splits what at its numbers (words that parse as floats,
// trailing punctuation aside) into the text with a NUL in each number's
// place and the numbers, in order.
func numbers(what string) (tmpl string, values []string) {
	words := strings.Split(what, " ")
	for i, w := range words {
		v := strings.TrimRight(w, ",;:)")
		if _, err := strconv.ParseFloat(v, 64); err != nil || v == "" {
			continue
		}
		values = append(values, v)
		words[i] = "\x00" + w[len(v):]
	}
	return strings.Join(words, " "), values
}

// configLabel names a configuration in assumptions: by its rank count,
// and its ranks per node where a sweep has several.
func configLabel(p, ppn int, severalPPN bool) string {
	if severalPPN {
		return fmt.Sprintf("P = %d, %d per node", p, ppn)
	}
	return fmt.Sprintf("P = %d", p)
}
