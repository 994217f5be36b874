package report

import (
	"fmt"
	"math"
	"sort"
)

// RankLoss holds the loss characteristics of one rank (seconds; counts of
// calls). See docs/report.md for the definitions.
type RankLoss struct {
	Rank            int     `json:"rank"`
	Execution       float64 `json:"execution"`
	Lost            float64 `json:"lost"`
	Productive      float64 `json:"productive"`
	Communications  float64 `json:"communications"`
	SendRecv        float64 `json:"sendrecv"`
	Collective      float64 `json:"collective"`
	System          float64 `json:"system"`
	Idle            float64 `json:"idle"`
	InsufficientPar float64 `json:"insufficient_parallelism"`
	LoadImbalance   float64 `json:"load_imbalance"`
	RealSync        float64 `json:"real_sync"`
	PotentialSync   float64 `json:"potential_sync"`
	TimeVariation   float64 `json:"time_variation"`
	Overlap         float64 `json:"overlap"`
	SendRecvCalls   int     `json:"sendrecv_calls"`
	CollectiveCalls int     `json:"collective_calls"`
	SystemCalls     int     `json:"system_calls"`
}

// Stat is one line of the comparative table: a characteristic's minimum,
// maximum and mean over ranks, with the (lowest) ranks holding min and max.
type Stat struct {
	Name    string  `json:"name"`
	Min     float64 `json:"min"`
	MinRank int     `json:"min_rank"`
	Max     float64 `json:"max"`
	MaxRank int     `json:"max_rank"`
	Mean    float64 `json:"mean"`
}

// SiteLoss is one line of the per call site table: one MPI op at one site.
type SiteLoss struct {
	Site          string    `json:"site"`
	Op            string    `json:"op"`
	Count         int       `json:"count"`
	Time          float64   `json:"time"`
	RealSync      float64   `json:"real_sync"`
	PotentialSync float64   `json:"potential_sync"`
	TimeVariation float64   `json:"time_variation"`
	Overlap       float64   `json:"overlap"`
	RankTime      []float64 `json:"rank_time"` // time per rank
	RankCount     []int     `json:"rank_count"`
}

// Loss is the analysis of the whole run (Interval 0) or of one user
// interval.
type Loss struct {
	Interval       int     `json:"interval"`
	Processors     int     `json:"processors"`
	ExecutionTime  float64 `json:"execution_time"`
	TotalTime      float64 `json:"total_time"`
	LostTime       float64 `json:"lost_time"`
	ProductiveTime float64 `json:"productive_time"`
	// Efficiency is ProductiveTime / TotalTime.
	Efficiency  float64    `json:"efficiency"`
	Ranks       []RankLoss `json:"ranks"`
	Comparative []Stat     `json:"comparative"`
	Sites       []SiteLoss `json:"sites"`
}

// LossReport is the loss analysis of a timeline.
type LossReport struct {
	Program   string   `json:"program,omitempty"`
	Machine   string   `json:"machine,omitempty"`
	Args      []string `json:"args,omitempty"`
	Whole     Loss     `json:"whole"`
	Intervals []Loss   `json:"intervals,omitempty"`
}

// LossOptions tunes Losses.
type LossOptions struct {
	// SitesBySource orders the call site table by file and line instead of
	// by decreasing time.
	SitesBySource bool
}

// Losses computes the DVM analyser's characteristics (SEEDS.md section 3)
// for the whole timeline and for each user interval.
func Losses(t *Timeline, opts LossOptions) (*LossReport, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	calls := buildCalls(t)
	matchCalls(calls)
	origin := t.Origin()
	whole := make([]span, len(t.Ranks))
	for i := range t.Ranks {
		if _, hi, ok := t.Ranks[i].span(); ok {
			whole[i] = span{wins: []window{{origin, math.Inf(1)}}, exec: hi - origin}
		}
	}
	rep := &LossReport{Program: t.Program, Machine: t.Machine, Args: t.Args}
	rep.Whole = analyse(t, calls, whole, 0, opts)
	ids, spans, err := intervals(t)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		rep.Intervals = append(rep.Intervals, analyse(t, calls, spans[id], id, opts))
	}
	return rep, nil
}

// window is a half-open stretch [lo, hi) of one rank's time; the last one
// of a rank reaches +Inf so that calls at the rank's very end belong to it.
type window struct{ lo, hi float64 }

// span is the part of one rank's time a Loss covers, and its length.
type span struct {
	wins []window
	exec float64
}

// clip is how much of [a, b] lies in the windows.
func clip(a, b float64, ws []window) float64 {
	var sum float64
	for _, w := range ws {
		sum += math.Max(0, math.Min(b, w.hi)-math.Max(a, w.lo))
	}
	return sum
}

// inside reports whether time x lies in one of the windows; events are
// attributed to the window holding their start.
func inside(x float64, ws []window) bool {
	for _, w := range ws {
		if w.lo <= x && x < w.hi {
			return true
		}
	}
	return false
}

// intervals pairs each rank's interval marks into spans per interval id; an
// interval left open ends with the rank's timeline.
func intervals(t *Timeline) ([]int, map[int][]span, error) {
	spans := map[int][]span{}
	for r, rt := range t.Ranks {
		_, hi, _ := rt.span()
		open := map[int][]float64{}
		for _, m := range rt.Marks {
			if spans[m.ID] == nil {
				spans[m.ID] = make([]span, len(t.Ranks))
			}
			if m.Begin {
				open[m.ID] = append(open[m.ID], m.Time)
				continue
			}
			st := open[m.ID]
			if len(st) == 0 {
				return nil, nil, fmt.Errorf("report: rank %d: end of interval %d at %s without a begin", r, m.ID, m.Site)
			}
			lo := st[len(st)-1]
			open[m.ID] = st[:len(st)-1]
			// A nested entry of the same interval is inside the outer one.
			if len(open[m.ID]) == 0 {
				sp := &spans[m.ID][r]
				sp.wins = append(sp.wins, window{lo, m.Time})
				sp.exec += m.Time - lo
			}
		}
		for id, st := range open {
			if len(st) > 0 {
				sp := &spans[id][r]
				sp.wins = append(sp.wins, window{st[0], math.Inf(1)})
				sp.exec += hi - st[0]
			}
		}
	}
	ids := make([]int, 0, len(spans))
	for id := range spans {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids, spans, nil
}

// analyse computes the characteristics over each rank's windows.
func analyse(t *Timeline, calls [][]*call, spans []span, id int, opts LossOptions) Loss {
	np := len(t.Ranks)
	l := Loss{Interval: id, Processors: np, Ranks: make([]RankLoss, np)}
	sites := map[[2]string]*SiteLoss{}
	for r := range t.Ranks {
		rl := &l.Ranks[r]
		rl.Rank = r
		ws := spans[r].wins
		rl.Execution = spans[r].exec
		for _, s := range t.Ranks[r].Segments {
			if s.Kind == KindCompute && s.Serial {
				rl.InsufficientPar += clip(s.Start, s.End, ws) * float64(np-1) / float64(np)
			}
		}
		for _, c := range calls[r] {
			d := clip(c.start, c.end, ws)
			in := inside(c.start, ws)
			class := opClass(c.seg.Op)
			switch class {
			case "sendrecv":
				rl.SendRecv += d
			case "collective":
				rl.Collective += d
			default:
				rl.System += d
			}
			if !in {
				continue
			}
			switch class {
			case "sendrecv":
				rl.SendRecvCalls++
			case "collective":
				rl.CollectiveCalls++
			default:
				rl.SystemCalls++
			}
			rl.RealSync += c.realSync
			rl.PotentialSync += c.potentialSync
			rl.TimeVariation += c.timeVariation
			rl.Overlap += c.overlap
			k := [2]string{c.seg.Site, c.seg.Op}
			sl := sites[k]
			if sl == nil {
				sl = &SiteLoss{Site: c.seg.Site, Op: c.seg.Op, RankTime: make([]float64, np), RankCount: make([]int, np)}
				sites[k] = sl
			}
			sl.Count++
			sl.RankCount[r]++
			sl.Time += c.dur()
			sl.RankTime[r] += c.dur()
			sl.RealSync += c.realSync
			sl.PotentialSync += c.potentialSync
			sl.TimeVariation += c.timeVariation
			sl.Overlap += c.overlap
		}
		rl.Communications = rl.SendRecv + rl.Collective + rl.System
		rl.Productive = rl.Execution - rl.Communications - rl.InsufficientPar
		l.ExecutionTime = math.Max(l.ExecutionTime, rl.Execution)
	}
	var maxProd float64
	for r := range l.Ranks {
		maxProd = math.Max(maxProd, l.Ranks[r].Productive)
	}
	for r := range l.Ranks {
		rl := &l.Ranks[r]
		rl.Idle = l.ExecutionTime - rl.Execution
		rl.Lost = rl.Communications + rl.Idle + rl.InsufficientPar
		rl.LoadImbalance = maxProd - rl.Productive
		l.LostTime += rl.Lost
		l.ProductiveTime += rl.Productive
	}
	l.TotalTime = l.ExecutionTime * float64(np)
	if l.TotalTime > 0 {
		l.Efficiency = l.ProductiveTime / l.TotalTime
	}
	l.Comparative = comparative(l.Ranks)
	l.Sites = sortSites(sites, opts.SitesBySource)
	return l
}

// characteristics names the per-rank values of the comparative table, in
// the order the DVM manual lists them.
var characteristics = []struct {
	name string
	get  func(*RankLoss) float64
}{
	{"execution", func(r *RankLoss) float64 { return r.Execution }},
	{"lost", func(r *RankLoss) float64 { return r.Lost }},
	{"productive", func(r *RankLoss) float64 { return r.Productive }},
	{"communications", func(r *RankLoss) float64 { return r.Communications }},
	{"sendrecv", func(r *RankLoss) float64 { return r.SendRecv }},
	{"collective", func(r *RankLoss) float64 { return r.Collective }},
	{"system", func(r *RankLoss) float64 { return r.System }},
	{"idle", func(r *RankLoss) float64 { return r.Idle }},
	{"insufficient_parallelism", func(r *RankLoss) float64 { return r.InsufficientPar }},
	{"load_imbalance", func(r *RankLoss) float64 { return r.LoadImbalance }},
	{"real_sync", func(r *RankLoss) float64 { return r.RealSync }},
	{"potential_sync", func(r *RankLoss) float64 { return r.PotentialSync }},
	{"time_variation", func(r *RankLoss) float64 { return r.TimeVariation }},
	{"overlap", func(r *RankLoss) float64 { return r.Overlap }},
}

func comparative(ranks []RankLoss) []Stat {
	out := make([]Stat, 0, len(characteristics))
	for _, ch := range characteristics {
		st := Stat{Name: ch.name}
		var sum float64
		for i := range ranks {
			v := ch.get(&ranks[i])
			sum += v
			if i == 0 || v < st.Min {
				st.Min, st.MinRank = v, i
			}
			if i == 0 || v > st.Max {
				st.Max, st.MaxRank = v, i
			}
		}
		st.Mean = sum / float64(len(ranks))
		out = append(out, st)
	}
	return out
}

func sortSites(m map[[2]string]*SiteLoss, bySource bool) []SiteLoss {
	out := make([]SiteLoss, 0, len(m))
	for _, s := range m {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !bySource && a.Time != b.Time {
			return a.Time > b.Time
		}
		if a.Site != b.Site {
			return siteLess(a.Site, b.Site)
		}
		return a.Op < b.Op
	})
	return out
}
