package model

import (
	"os"
	"testing"
)

func TestDump(t *testing.T) {
	p, err := Load(Config{Dir: "testdata/src/kinds"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Funcs {
		WriteTree(os.Stdout, f)
		if err := f.Check(); err != nil {
			t.Error(err)
		}
	}
}
