package prediction

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
)

func BenchmarkTmpHeatVar(b *testing.B) {
	p, _ := strconv.Atoi(os.Getenv("TMP_P"))
	steps := os.Getenv("TMP_STEPS")
	args := []string{"-n", "4096", "-steps", steps, "-check=false"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: args,
		ProfileArgs: []string{"-n", "128", "-steps", "50", "-check=false"},
		ProfileOut:  filepath.Join("/tmp", "heatvar.profile.json")}
	prof, err := obtainProfile(context.Background(), opts, func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	mp, _ := model.Load(model.Config{Dir: ".."}, "./examples/heat")
	lp, _ := loopnest.FromModel(mp, nil)
	oracle, _ := NewOracle(mp, lp, prof)
	m, _ := commmodel.Load("ib-qdr")
	m.Nodes = p / 8
	if m.Nodes < 1 {
		m.Nodes = 1
	}
	b.ResetTimer()
	var ops int64
	for range b.N {
		run, _, err := simulate(mp, oracle, m, p, p/8, 8, commmodel.Block, args, false)
		if err != nil {
			b.Fatal(err)
		}
		ops += run.Ops
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ops)/float64(b.N), "events/op")
}
