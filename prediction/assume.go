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
// differ only in one number, each configuration giving one, become one
// line naming the number per configuration; any other made by some
// configurations only names them.
func (s *assumptionSet) sorted() []interpreter.Assumption {
	type variant struct {
		value   string
		configs []int
	}
	groups := map[[2]string][]variant{} // by position and the text around the number
	var out []interpreter.Assumption
	for a, configs := range s.by {
		if len(configs) == len(s.configs) {
			out = append(out, a)
			continue
		}
		if tmpl, value, ok := oneNumber(a.What); ok {
			k := [2]string{a.Pos, tmpl}
			groups[k] = append(groups[k], variant{value, configs})
			continue
		}
		out = append(out, interpreter.Assumption{Pos: a.Pos, What: a.What + " (" + s.labels(configs) + ")"})
	}
	for k, vs := range groups {
		sort.Slice(vs, func(i, j int) bool { return vs[i].configs[0] < vs[j].configs[0] })
		seen := map[int]bool{}
		single := true // no configuration gives two values
		for _, v := range vs {
			for _, c := range v.configs {
				single = single && !seen[c]
				seen[c] = true
			}
		}
		if !single || len(vs) == 1 {
			for _, v := range vs {
				out = append(out, interpreter.Assumption{Pos: k[0], What: strings.Replace(k[1], "\x00", v.value, 1) + " (" + s.labels(v.configs) + ")"})
			}
			continue
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = v.value + " (" + s.labels(v.configs) + ")"
		}
		out = append(out, interpreter.Assumption{Pos: k[0], What: strings.Replace(k[1], "\x00", strings.Join(parts, ", "), 1)})
	}
	sortAssumptions(out)
	return out
}

// labels names the configurations with indexes cs.
func (s *assumptionSet) labels(cs []int) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = s.configs[c]
	}
	return "at " + strings.Join(names, ", ")
}

// oneNumber splits what at its only number (a word that parses as a
// float, trailing punctuation aside) into the text with a NUL in the
// number's place and the number. It fails for none or more than one.
func oneNumber(what string) (tmpl, value string, ok bool) {
	words := strings.Split(what, " ")
	at := -1
	for i, w := range words {
		w = strings.TrimRight(w, ",;:)")
		if _, err := strconv.ParseFloat(w, 64); err != nil || w == "" {
			continue
		}
		if at >= 0 {
			return "", "", false
		}
		at = i
	}
	if at < 0 {
		return "", "", false
	}
	w := words[at]
	value = strings.TrimRight(w, ",;:)")
	words[at] = "\x00" + w[len(value):]
	return strings.Join(words, " "), value, true
}

// configLabel names a configuration in assumptions: by its rank count,
// and its ranks per node where a sweep has several.
func configLabel(p, ppn int, severalPPN bool) string {
	if severalPPN {
		return fmt.Sprintf("P = %d, %d per node", p, ppn)
	}
	return fmt.Sprintf("P = %d", p)
}
