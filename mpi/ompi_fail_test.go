//go:build openmpi || mpich

package mpi_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

// envScenario makes the test binary run one program of scenarios instead of
// the tests; the child is started without mpirun, so it is an MPI singleton.
const envScenario = "PARPREDICT_MPI_TEST_SCENARIO"

var scenarios = map[string]func(c *mpi.Comm){
	"ok": func(c *mpi.Comm) {
		fmt.Printf("rank %d of %d\n", c.Rank(), c.Size())
	},
	"truncate": func(c *mpi.Comm) {
		req := mpi.Isend(c, make([]float64, 10), 0, 4)
		mpi.Recv(c, make([]float64, 5), 0, 4)
		req.Wait()
	},
	"invalid": func(c *mpi.Comm) { mpi.Send(c, []int{1}, 5, 0) },
	"panic":   func(*mpi.Comm) { panic("boom") },
	"abort":   func(c *mpi.Comm) { c.Abort(3) },
	"hang":    func(c *mpi.Comm) { mpi.Recv(c, []int{0}, 0, 9) }, // nobody sends
}

func runScenario(name string) {
	if name == "toomany" {
		err := mpi.Run(2, func(*mpi.Comm) {})
		fmt.Println(err)
		mpi.Finalize()
		return
	}
	mpi.Main(scenarios[name])
}

// TestFailuresAbortTheJob runs each failing program as a singleton child
// process and checks its exit status and report: under MPI a failure aborts
// the job instead of returning from Run.
func TestFailuresAbortTheJob(t *testing.T) {
	if rank, _ := mpi.JobRankSize(); rank != 0 {
		t.Skip("run by rank 0 only")
	}
	truncated := "message of 80 bytes"
	if mpi.BackendName == "mpich" {
		truncated = "message of unknown size" // MPICH reports only what fitted
	}
	cases := []struct {
		name string
		code int // exit status
		want []string
		env  string
	}{
		{"ok", 0, []string{"rank 0 of 1"}, ""},
		{"toomany", 0, []string{"2 ranks asked for, but this job has 1 processes"}, ""},
		{"truncate", 1, []string{"rank 0: Recv at ompi_fail_test.go:", truncated + " from rank 0 (tag 4) does not fit the 40-byte receive buffer"}, ""},
		{"invalid", 1, []string{"rank 0: Send at ompi_fail_test.go:", "destination 5 out of range [0,1)"}, ""},
		{"panic", 1, []string{"rank 0: panic: boom", "goroutine"}, ""},
		{"abort", 3, []string{"rank 0 called Abort(3) at ompi_fail_test.go:"}, ""},
		{"hang", 1, []string{"watchdog: rank 0 has waited", "in Recv(peer 0, tag 9) at ompi_fail_test.go:"}, mpi.EnvMPITimeout + "=0.3"},
		{"hang", 1, []string{mpi.EnvMPITimeout + `="soon": not a duration`}, mpi.EnvMPITimeout + "=soon"},
	}
	for _, tc := range cases {
		t.Run(tc.name+tc.env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(singletonEnv(), envScenario+"="+tc.name)
			if tc.env != "" {
				cmd.Env = append(cmd.Env, tc.env)
			}
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit status %d, want %d; output:\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// singletonEnv is the environment without the variables by which mpirun
// tells a process that it belongs to a job.
func singletonEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "OMPI_"), strings.HasPrefix(kv, "PMIX_"), strings.HasPrefix(kv, "OPAL_"),
			strings.HasPrefix(kv, "ORTE_"), strings.HasPrefix(kv, "PMI_"), strings.HasPrefix(kv, "HYDRA_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}
