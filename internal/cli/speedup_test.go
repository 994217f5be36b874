package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestParseCounts(t *testing.T) {
	cases := []struct {
		in   string
		def  int
		want []int
		err  string
	}{
		{"", 12, []int{1, 2, 4, 8, 12}, ""},
		{"", 8, []int{1, 2, 4, 8}, ""},
		{"1:4", 0, []int{1, 2, 3, 4}, ""},
		{"2, 4,8", 0, []int{2, 4, 8}, ""},
		{"", 0, nil, "no counts"},
		{"4:2", 0, nil, "FROM:TO"},
		{"0,2", 0, nil, "not a positive count"},
		{"x", 0, nil, "not a positive count"},
	}
	for _, c := range cases {
		got, err := parseCounts(c.in, c.def)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseCounts(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseCounts(%q, %d) = %v, %v; want %v", c.in, c.def, got, err, c.want)
		}
	}
}

func TestSpeedupUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"speedup", "./examples/heat", "--csv", "--json"},
		{"speedup", "./examples/heat", "--np", "0"},
		{"speedup", "./examples/heat", "--order", "diagonal"},
		{"speedup", "./examples/heat", "--np", "1,2", "--at", "3"},
		{"validate", "./examples/heat", "--reps", "0"},
		{"validate", "./examples/heat", "--calibrate", "--machine", "ib-qdr"},
		{"speedup"},
	} {
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}
