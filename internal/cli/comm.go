package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/spf13/cobra"
)

func init() { register(newCommCmd) }

type commOptions struct {
	machine    string
	op         string
	size       string
	np         int
	placements string
	order      string
	algorithm  string
	rules      string
	leaders    int
	root       int
	json       bool
}

func newCommCmd(streams *IO) *cobra.Command {
	opts := &commOptions{}
	cmd := &cobra.Command{
		Use:   "comm",
		Short: "Predict a collective's time under several placements of its ranks",
		Long: `comm replays a collective operation as the point-to-point schedule of the
algorithm the machine's rules select (Open MPI 4.1 by default), with
per-level latencies and bandwidths, the eager/rendezvous protocol and
contention on shared channels (node adapters, socket memory, inter-socket
links), for each placement NODESxPPN, and orders the placements from
fastest to slowest. --size is the message of one rank to one peer for
Gather, Scatter, Allgather and Alltoall, and the whole buffer for Bcast,
Reduce and Allreduce. --machine takes a file or a preset name
(gige-smp, ib-qdr, local).`,
		Example: `  predict comm --machine ib-qdr --op alltoall --size 1MiB --np 8 --placements 1x8,2x4,4x2
  predict comm --machine gige-smp --op allreduce --size 64KiB --np 16 --rules mpich
  predict comm --machine ib-qdr --op alltoall --size 64 --np 96 --placements 8x12 --algorithm leaders --leaders 4
  predict comm --machine ib-qdr --op alltoall --size 1KiB --np 96 --placements 8x12 --algorithm leaders
  predict comm --machine machines/local.yaml --op bcast --size 4KiB --np 2 --json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return commRun(opts, streams) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.machine, "machine", "ib-qdr", "machine file or preset name")
	f.StringVar(&opts.op, "op", "alltoall", "collective: barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall")
	f.StringVar(&opts.size, "size", "1MiB", "message size (e.g. 4096, 64KiB, 1MiB)")
	f.IntVar(&opts.np, "np", 8, "number of ranks")
	f.StringVar(&opts.placements, "placements", "", "comma-separated NODESxPPN list (default: every exact fit on the machine)")
	f.StringVar(&opts.order, "order", "block", "rank order over nodes: block or round-robin")
	f.StringVar(&opts.algorithm, "algorithm", "", "force an algorithm instead of the selection rules")
	f.StringVar(&opts.rules, "rules", "", "selection rules: openmpi, mpich or goroutine (default: the machine's)")
	f.IntVar(&opts.leaders, "leaders", 0, "leaders per node for --algorithm leaders (0: try every divisor of ppn, keep the fastest: PLP)")
	f.IntVar(&opts.root, "root", 0, "root rank of rooted collectives")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func commRun(opts *commOptions, streams *IO) error {
	op, err := commmodel.ParseOp(opts.op)
	if err != nil {
		return &FlagError{err}
	}
	size, err := commmodel.ParseSize(opts.size)
	if err != nil {
		return &FlagError{err}
	}
	order, err := commmodel.ParseOrder(opts.order)
	if err != nil {
		return &FlagError{err}
	}
	if opts.leaders < 0 {
		return &FlagError{fmt.Errorf("--leaders must not be negative")}
	}
	if opts.np < 1 {
		return &FlagError{fmt.Errorf("--np must be at least 1")}
	}
	if opts.root < 0 || opts.root >= opts.np {
		return &FlagError{fmt.Errorf("--root %d out of range for %d ranks", opts.root, opts.np)}
	}
	m, err := commmodel.Load(opts.machine)
	if err != nil {
		return err
	}
	if opts.rules != "" {
		if !slices.Contains(commmodel.RuleSets, opts.rules) {
			return &FlagError{fmt.Errorf("--rules %q: want one of %s", opts.rules, strings.Join(commmodel.RuleSets, ", "))}
		}
		m.Collectives.Rules = opts.rules
	}
	configs, err := commConfigs(m, opts.np, opts.placements)
	if err != nil {
		return err
	}
	res, err := m.Compare(op, size, opts.np, configs, commmodel.CompareOptions{
		Order: order, Algorithm: opts.algorithm, Leaders: opts.leaders, Root: opts.root})
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Machine    string                    `json:"machine"`
			Op         string                    `json:"op"`
			Bytes      int                       `json:"bytes"`
			NP         int                       `json:"np"`
			Rules      string                    `json:"rules"`
			Order      string                    `json:"order"`
			Placements []commmodel.PlacementTime `json:"placements"`
		}{m.Name, op.String(), size, opts.np, m.Collectives.Rules, order.String(), res})
	}
	fmt.Fprintf(streams.Out, "%v of %s on %d ranks, machine %s (%s rules), %v order\n",
		op, commmodel.FormatSize(size), opts.np, m.Name, m.Collectives.Rules, order)
	tw := tabwriter.NewWriter(streams.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "placement\talgorithm\tpredicted (s)\tuncontended (s)\tclosed form (s)\tmax share\torder")
	for _, r := range res {
		cf := "-"
		if r.ClosedForm > 0 {
			cf = fmt.Sprintf("%.4g", r.ClosedForm)
		}
		fmt.Fprintf(tw, "%v\t%s\t%.4g\t%.4g\t%s\t%d\t%d\n", r.Config, r.Algorithm, r.Time, r.Uncontended, cf, r.MaxShare, r.Order)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ranked := make([]string, len(res))
	for _, r := range res {
		ranked[r.Order-1] = r.Config.String()
	}
	fmt.Fprintf(streams.Out, "order: %s\n", strings.Join(ranked, " < "))
	return nil
}

// commConfigs parses --placements, or lists every NODESxPPN with exactly
// np ranks that the machine can hold.
func commConfigs(m *commmodel.Machine, np int, list string) ([]commmodel.Config, error) {
	var out []commmodel.Config
	if list == "" {
		for ppn := np; ppn >= 1; ppn-- {
			if np%ppn == 0 && ppn <= m.CoresPerNode() && np/ppn <= m.Nodes {
				out = append(out, commmodel.Config{Nodes: np / ppn, PPN: ppn})
			}
		}
		if len(out) == 0 {
			return nil, &FlagError{fmt.Errorf("%d ranks do not fit on machine %s", np, m.Name)}
		}
		return out, nil
	}
	for _, s := range strings.Split(list, ",") {
		nodes, ppn, err := commmodel.ParseConfig(strings.TrimSpace(s))
		if err != nil {
			return nil, &FlagError{err}
		}
		out = append(out, commmodel.Config{Nodes: nodes, PPN: ppn})
	}
	return out, nil
}
