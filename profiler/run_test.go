package profiler

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestRunRows(t *testing.T) {
	p, err := Run(context.Background(), Options{Package: "./testdata/rows", Args: []string{"-n", "300"}, Baseline: true, Repeat: 3, PPN: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PROFILER_DUMP") != "" {
		data, _ := json.MarshalIndent(p, "", " ")
		t.Logf("%s", data)
	}
}
