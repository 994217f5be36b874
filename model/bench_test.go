package model

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkStd compares plain SSA construction of the whole standard
// library with building the control trees of all its functions from that
// SSA. Loading (parsing and type checking) happens once, outside the
// timings. Besides wall time it reports the CPU time of the process per
// operation (cpu-ms/op), which a busy machine disturbs less.
func BenchmarkStd(b *testing.B) {
	pkgs, err := LoadPackages(Config{}, "std")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ssa", func(b *testing.B) {
		var cpu time.Duration
		for range b.N {
			t := cpuTime()
			BuildSSA(pkgs)
			cpu += cpuTime() - t
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	b.Run("trees", func(b *testing.B) {
		var cpu time.Duration
		for range b.N {
			b.StopTimer()
			prog, spkgs := BuildSSA(pkgs)
			b.StartTimer()
			t := cpuTime()
			if _, err := Build(prog, pkgs, spkgs); err != nil {
				b.Fatal(err)
			}
			cpu += cpuTime() - t
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}

// cpuTime returns the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
