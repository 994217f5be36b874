package mpi_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

// sendInlined is small enough for the compiler to inline into its
// callers, and mpi.Send may be inlined into it: the events' site is still
// this line, not the caller's.
func sendInlined(c *mpi.Comm, buf []byte) { mpi.Send(c, buf, 1, 0) } // site:inlined

//go:noinline
func sendOutlined(c *mpi.Comm, buf []byte) {
	mpi.Send(c, buf, 1, 0) // site:outlined
}

// The trace names each call by the user's line that made it: calls of the
// same function on different lines, through a user function inlined or
// not, a method, an interval mark; each site found again from the cache on
// later iterations.
func TestTraceCallSites(t *testing.T) {
	needRanks(t, 2)
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		buf := make([]byte, 8)
		for range 3 {
			c.BeginInterval(1) // site:mark
			if c.Rank() == 0 {
				mpi.Send(c, buf, 1, 0) // site:send
				sendInlined(c, buf)
				sendOutlined(c, buf)
			} else {
				mpi.Recv(c, buf, 0, 0) // site:recv1
				mpi.Recv(c, buf, 0, 0) // site:recv2
				mpi.Recv(c, buf, 0, 0) // site:recv3
			}
			c.Barrier()      // site:barrier
			c.EndInterval(1) // site:endmark
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) {
		return
	}
	line := siteMarkers(t, "site_test.go")
	want := map[int][]string{
		0: {"mark", "send", "inlined", "outlined", "barrier", "endmark"},
		1: {"mark", "recv1", "recv2", "recv3", "barrier", "endmark"},
	}
	for _, rk := range tr.Ranks {
		var got, exp []string
		for _, e := range rk.Events {
			got = append(got, e.Op+"@"+e.Site)
		}
		for range 3 {
			for _, m := range want[rk.Rank] {
				exp = append(exp, line[m])
			}
		}
		for i := range exp {
			if i >= len(got) || !strings.HasSuffix(got[i], "@"+exp[i]) {
				t.Errorf("rank %d: events %q, want their sites to be %q", rk.Rank, got, exp)
				break
			}
		}
	}
}

// siteMarkers maps each "// site:NAME" comment of file to "file:line".
func siteMarkers(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if _, name, ok := strings.Cut(sc.Text(), "// site:"); ok {
			lines[name] = fmt.Sprintf("%s:%d", file, n)
		}
	}
	return lines
}
