package prediction

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
)

// BenchmarkHeatP1024 measures the whole prediction path (SSA evaluator,
// reduced nests from a real profile, simulator, commmodel network) on the
// heat example's halo exchange at P = 1024 (16 nodes x 64 would not fit
// the preset; 1024 ranks run as 64 nodes of 16 on a copy of ib-qdr with
// more nodes). It reports simulated MPI operations per second.
func BenchmarkHeatP1024(b *testing.B) {
	const p = 1024
	args := []string{"-n", "4096", "-steps", "50", "-check=false"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: args,
		ProfileArgs: []string{"-n", "128", "-steps", "50", "-check=false"},
		ProfileOut:  filepath.Join(b.TempDir(), "heat.profile.json")}
	prof, err := obtainProfile(context.Background(), opts, func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	mp, err := model.Load(model.Config{Dir: ".."}, "./examples/heat")
	if err != nil {
		b.Fatal(err)
	}
	lp, err := loopnest.FromModel(mp, nil)
	if err != nil {
		b.Fatal(err)
	}
	oracle, err := NewOracle(mp, lp, prof)
	if err != nil {
		b.Fatal(err)
	}
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		b.Fatal(err)
	}
	m.Nodes = p / 8
	b.ResetTimer()
	var ops, msgs int64
	for range b.N {
		run, _, err := simulate(mp, oracle, m, p, p/8, 8, commmodel.Block, args, false)
		if err != nil {
			b.Fatal(err)
		}
		ops += run.Ops
		msgs += run.Messages
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ops)/float64(b.N), "events/op")
	// The messages the network model priced, collectives' internal ones
	// included: the unit of simulators that count network events
	// (LogGOPSim), given beside ours, the user-level MPI calls.
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "messages/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "messages/op")
}

// BenchmarkHeatSweep times a whole `predict speedup` of heat (the model
// built, the profile reused, 16 configurations from 1 to 960 ranks on a
// machine large enough) with the configurations simulated one after
// another and at once (SpeedupOptions.Jobs).
func BenchmarkHeatSweep(b *testing.B) {
	dir := b.TempDir()
	preset, err := os.ReadFile("../machines/ib-qdr.yaml")
	if err != nil {
		b.Fatal(err)
	}
	machine := filepath.Join(dir, "machine.yaml")
	big := strings.Replace(strings.Replace(string(preset), "\nnodes: 16\n", "\nnodes: 80\n", 1), "\nname: ib-qdr\n", "\nname: ib-qdr-80\n", 1)
	if err := os.WriteFile(machine, []byte(big), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"-n", "2048", "-steps", "50", "-check=false"}
	np := []int{1}
	for p := 64; p <= 960; p += 64 {
		np = append(np, p)
	}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: args, NP: np, Machine: machine,
		ProfileArgs: []string{"-n", "128", "-steps", "50", "-check=false"},
		ProfileOut:  filepath.Join(dir, "heat.profile.json")}
	if _, err := obtainProfile(context.Background(), opts, func(string, ...any) {}); err != nil {
		b.Fatal(err)
	}
	opts.Profile = opts.ProfileOut
	for _, jobs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			opts.Jobs = jobs
			for range b.N {
				if _, err := Speedup(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
