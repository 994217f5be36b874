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
	"github.com/parpredict/parpredict/commmodel/simnet"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
)

// BenchmarkHeatP1024 measures the whole prediction path (SSA evaluator,
// reduced nests from a real profile, simulator, commmodel network) on the
// heat example's halo exchange at P = 1024 (128 nodes of 8 ranks on
// ib-qdr with more nodes than the preset's 16). It reports simulated MPI
// operations per second.
func BenchmarkHeatP1024(b *testing.B) {
	const p = 1024
	mp, oracle, m, args := heatP1024(b, p)
	b.ResetTimer()
	var ops, msgs int64
	for range b.N {
		run, _, err := simulate(mp, oracle, m, p, p/8, 8, commmodel.Block, args, interpreter.Options{})
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

// heatP1024 makes what BenchmarkHeatP1024 simulates: heat's model, an
// oracle from a real profile (made at a small size), and ib-qdr with p/8
// nodes, for 8 ranks each.
func heatP1024(b *testing.B, p int) (*model.Program, *Oracle, *commmodel.Machine, []string) {
	b.Helper()
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
	return mp, oracle, m, args
}

// BenchmarkHeatP1024Replay simulates BenchmarkHeatP1024's operations
// again without the SSA evaluator: each rank replays the compute times
// and operations its program gave in one simulation. Its events/s is the
// ceiling that making the evaluator faster can reach.
func BenchmarkHeatP1024Replay(b *testing.B) {
	const p = 1024
	mp, oracle, m, args := heatP1024(b, p)
	pl, err := m.Place(p, p/8, 8, commmodel.Block)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := interpreter.NewSSAPrograms(mp.SSA, mp.Packages[0], oracle.onNode(oracle.nodeContention(m), 8, 1, p), p, interpreter.ExecOptions{Args: args})
	if err != nil {
		b.Fatal(err)
	}
	recs := make([]*recorder, p)
	progs := make([]interpreter.Program, p)
	for i, prog := range sp.Programs() {
		recs[i] = &recorder{prog: prog}
		progs[i] = recs[i]
	}
	want, err := interpreter.Simulate(simnet.New(m, pl), progs, interpreter.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var ops int64
	for range b.N {
		for i, r := range recs {
			progs[i] = &replay{steps: r.steps}
		}
		run, err := interpreter.Simulate(simnet.New(m, pl), progs, interpreter.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if run.Makespan != want.Makespan || run.Ops != want.Ops {
			b.Fatalf("replay: makespan %g s, %d operations; the simulation gave %g s, %d", run.Makespan, run.Ops, want.Makespan, want.Ops)
		}
		ops += run.Ops
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ops)/float64(b.N), "events/op")
}

// recorder passes a program's steps through and keeps them.
type recorder struct {
	prog  interpreter.Program
	steps []replayStep
}

type replayStep struct {
	compute float64
	op      interpreter.Op
}

func (r *recorder) Step(prev interpreter.Result) (float64, interpreter.Op, error) {
	t, op, err := r.prog.Step(prev)
	r.steps = append(r.steps, replayStep{t, op})
	return t, op, err
}

// replay gives recorded steps back, whatever the results.
type replay struct {
	steps []replayStep
	next  int
}

func (r *replay) Step(interpreter.Result) (float64, interpreter.Op, error) {
	s := r.steps[r.next]
	r.next++
	return s.compute, s.op, nil
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
