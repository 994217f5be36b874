package report

import (
	"fmt"
	"io"
	"strconv"
)

// RankTotal is one rank's share of a predicted or measured run, in
// seconds: its own work, time in MPI transferring or synchronising, and
// time blocked on other ranks.
type RankTotal struct {
	Rank     int     `json:"rank"`
	Finish   float64 `json:"finish"`
	Compute  float64 `json:"compute"`
	MPI      float64 `json:"mpi"`
	Wait     float64 `json:"wait"`
	Messages int     `json:"messages"`
	Bytes    int     `json:"bytes"`
}

// RankTotals are the per-rank totals of one configuration.
type RankTotals struct {
	Config Config      `json:"config"`
	Ranks  []RankTotal `json:"ranks"`
}

// WriteText prints one row per rank.
func (t *RankTotals) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "per rank at P = %d (%s):\n", t.Config.P, t.Config.Layout()); err != nil {
		return err
	}
	rows := [][]string{{"rank", "finish (s)", "compute (s)", "mpi (s)", "wait (s)", "messages", "bytes"}}
	for _, r := range t.Ranks {
		rows = append(rows, []string{strconv.Itoa(r.Rank), secs(r.Finish), secs(r.Compute), secs(r.MPI), secs(r.Wait),
			strconv.Itoa(r.Messages), strconv.Itoa(r.Bytes)})
	}
	return table(w, rows)
}
