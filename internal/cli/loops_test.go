package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLoops(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string // in stdout, or in stderr when code != 0
	}{
		{"text", []string{"loops", "../../examples/heat"}, 0, []string{
			"main.jacobiStep:loop@kernels.go:+2:2",
			"trips:   max(0, rows)  [depends on rank/size]",
			"reduce:  yes, root of a reduced nest",
			"reduce:  no: contains MPI: Allreduce, Sendrecv (in main.exchangeHalos)",
		}},
		{"pure flag", []string{"loops", "--pure", "fmt.Fprintf", "../../examples/transpose"}, 0, []string{
			"calls:   fmt.Fprintf @",
		}},
		{"no packages", []string{"loops"}, 2, []string{"give at least one package", "--help"}},
		{"bad package", []string{"loops", "./no/such/dir"}, 1, []string{"predict: loopnest: model: loading packages"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(tt.args, &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, errb.String())
			}
			text := out.String()
			if code != 0 {
				text = errb.String()
			}
			for _, s := range tt.contains {
				if !strings.Contains(text, s) {
					t.Errorf("output lacks %q:\n%s", s, text)
				}
			}
		})
	}
}

func TestLoopsJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"loops", "--json", "../../examples/heat"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	var rep struct {
		Functions []struct {
			Name  string
			Loops []struct {
				ID            string
				Trip          string
				DataDependent bool `json:"data_dependent"`
				Reduced       bool
				MPI           []struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	var sawConvergence, sawReduced bool
	for _, f := range rep.Functions {
		for _, l := range f.Loops {
			if f.Name == "main.run" && len(l.MPI) > 0 {
				sawConvergence = l.DataDependent && !l.Reduced
			}
			if f.Name == "main.jacobiStep" && l.Reduced && l.Trip == "max(0, rows)" {
				sawReduced = true
			}
		}
	}
	if !sawConvergence || !sawReduced {
		t.Errorf("JSON lacks the convergence loop (%v) or the reduced Jacobi nest (%v):\n%s", sawConvergence, sawReduced, out.String())
	}
}
