package host

import "testing"

func TestCountCPUList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		okay bool
	}{
		{"0-1\n", 2, true}, {"0", 1, true}, {"0-3,8,10-11", 7, true},
		{"", 0, false}, {"3-1", 0, false}, {"a-b", 0, false},
	} {
		n, ok := CountCPUList(tc.in)
		if n != tc.n || ok != tc.okay {
			t.Errorf("CountCPUList(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.n, tc.okay)
		}
	}
}

func TestThisHost(t *testing.T) {
	if CPUModel() == "" {
		t.Error("CPUModel() is empty; want a name or \"unknown\"")
	}
	if Cores() < 1 {
		t.Errorf("Cores() = %d, want at least 1", Cores())
	}
}
