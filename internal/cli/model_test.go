package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestModelCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{
			name: "heat loop with halo exchange and residual",
			args: []string{"model", "../../examples/heat", "--func", `^main\.(run|exchangeHalos)$`},
			code: 0,
			contains: []string{
				"func main.run ",
				"natural-loop main.run:loop@",
				"call main.exchangeHalos",
				"mpi Allreduce send=len(local)*8 recv=len(global)*8 op=mpi.Max",
				"mpi Sendrecv send=len(last)*8 dest=rank + 1 tag=tagDown recv=len(bottom)*8 source=rank + 1 recvtag=tagUp",
			},
		},
		{name: "bad regexp", args: []string{"model", "../../examples/heat", "--func", "("}, code: 2, contains: []string{"--func"}},
		{name: "no function matches", args: []string{"model", "../../examples/heat", "--func", "^nothing$"}, code: 1, contains: []string{"no function matches"}},
		{name: "no packages", args: []string{"model"}, code: 1, contains: []string{"requires at least 1 arg"}},
		{name: "missing package", args: []string{"model", "./does/not/exist"}, code: 1, contains: []string{"model: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(tt.args, &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, errb.String())
			}
			all := out.String() + errb.String()
			for _, s := range tt.contains {
				if !strings.Contains(all, s) {
					t.Errorf("output lacks %q:\n%s", s, all)
				}
			}
		})
	}
}

func TestModelJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"model", "--json", "../../examples/heat", "--func", `^main\.run$`}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stderr %q", code, errb.String())
	}
	var doc struct {
		Functions []struct {
			Name string
			Tree json.RawMessage
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Functions) != 1 || doc.Functions[0].Name != "main.run" {
		t.Fatalf("functions %+v", doc.Functions)
	}
	tree := string(doc.Functions[0].Tree)
	for _, s := range []string{`"op": "Allreduce"`, `"send_bytes": "len(local)*8"`, `"kind": "natural-loop"`, `"node": "*ast.ForStmt"`} {
		if !strings.Contains(tree, s) {
			t.Errorf("JSON tree lacks %s", s)
		}
	}
}
