package host

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// CPUModel reads the CPU's name from /proc/cpuinfo ("unknown" elsewhere).
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// Cores is the number of online CPUs of this host. Under mpirun a process
// is often bound to one core, and runtime.NumCPU counts only the CPUs it
// may run on; a machine file wants the node's.
func Cores() int {
	data, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return runtime.NumCPU()
	}
	n, ok := CountCPUList(string(data))
	if !ok {
		return runtime.NumCPU()
	}
	return n
}

// CountCPUList counts the CPUs of a Linux CPU list such as "0-3,8,10-11".
func CountCPUList(list string) (int, bool) {
	n := 0
	for _, r := range strings.Split(strings.TrimSpace(list), ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return 0, false
		}
		n += b - a + 1
	}
	return n, true
}
