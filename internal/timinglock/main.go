package timinglock

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// Main runs a package's tests under the timing lock, for packages most of
// whose tests profile programs: func TestMain(m *testing.M) {
// timinglock.Main(m) }. Under -short, where those tests skip, no lock is
// taken.
func Main(m *testing.M) { run(m, Acquire) }

// MainShared runs a package's tests under a shared hold of the timing
// lock, for packages whose tests take every core for seconds (building
// SSA for many programs) without timing anything: they run beside each
// other but not beside a package that times programs.
func MainShared(m *testing.M) { run(m, AcquireShared) }

func run(m *testing.M, acquire func() (func(), error)) {
	flag.Parse()
	// A fuzzing worker is a child of the test process that holds the
	// lock: taking it again would wait for the parent forever.
	if testing.Short() || fuzzWorker() {
		os.Exit(m.Run())
	}
	release, err := acquire()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v; timing without the lock\n", err)
	}
	code := m.Run()
	release()
	os.Exit(code)
}

// fuzzWorker reports whether this process is a fuzzing worker (go test
// -fuzz starts them with -test.fuzzworker).
func fuzzWorker() bool {
	f := flag.Lookup("test.fuzzworker")
	return f != nil && f.Value.String() == "true"
}
