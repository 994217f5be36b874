package report

import "fmt"

// MachineMismatch says that the machine file of a validation was not
// calibrated on the computer the real runs ran on: its latencies,
// bandwidths, page faults and lockstep table are another computer's (or,
// without a calibration record, a paper's), so every predicted time
// carries that difference whatever the model. A virtual machine can move
// to another kind of host between two days; its machine file does not
// follow.
type MachineMismatch struct {
	Machine string `json:"machine"` // the machine file's name
	// The calibration: CPU is empty for a file that `predict bench` did
	// not write (a preset from a paper).
	CPU   string `json:"calibrated_cpu,omitempty"`
	Cores int    `json:"calibrated_cores"` // cores per node in the file
	Date  string `json:"calibrated_date,omitempty"`
	// This computer.
	HostCPU   string `json:"this_cpu"`
	HostCores int    `json:"this_cores"`
}

// recalibrate is what to do about a machine file that does not describe
// this computer.
const recalibrate = "run `predict bench` here (it writes machines/local.yaml, which --machine local then reads) and validate again, or validate with --calibrate"

// Describe says in one sentence what differs and what to do.
func (m *MachineMismatch) Describe() string {
	if m.CPU == "" {
		return fmt.Sprintf("machine file: %s was not calibrated by predict bench (no cpu in its provenance), so it may not describe this computer (%s, %d cores): %s",
			m.Machine, m.HostCPU, m.HostCores, recalibrate)
	}
	when := ""
	if m.Date != "" {
		when = " on " + m.Date
	}
	return fmt.Sprintf("machine file: %s was calibrated%s on %s with %d cores; this computer is %s with %d cores: every predicted time carries the difference between the two; %s",
		m.Machine, when, m.CPU, m.Cores, m.HostCPU, m.HostCores, recalibrate)
}

// MachineStale says that the machine file's point-to-point times are no
// longer this computer's: a ping-pong measured just before the real runs
// took Ratio times (or 1/Ratio of) what the file predicts for the same
// message. The file may be of this very CPU, calibrated on another day: a
// virtual machine's host can change its speed overnight.
type MachineStale struct {
	Machine   string    `json:"machine"`
	Date      string    `json:"calibrated_date,omitempty"`
	Bytes     []int     `json:"bytes"`      // message sizes checked
	FileS     []float64 `json:"file_s"`     // the file's one-way time for each
	MeasuredS []float64 `json:"measured_s"` // this computer's, measured now
	// Ratio is the size's measured / file time farthest from 1.
	Ratio float64 `json:"ratio"`
	// Calibrated is set when validate measured this computer instead
	// (predict bench's suite, not saved) and predicted with that.
	Calibrated bool `json:"calibrated,omitempty"`
}

// Describe says in one sentence how far the file is from this computer
// and what to do.
func (s *MachineStale) Describe() string {
	var pairs string
	for i, b := range s.Bytes {
		if i > 0 {
			pairs += ", "
		}
		pairs += fmt.Sprintf("%d B: %s us measured, %s us in the file", b, secs(s.MeasuredS[i]*1e6), secs(s.FileS[i]*1e6))
	}
	when := ""
	if s.Date != "" {
		when = " since " + s.Date
	}
	if s.Calibrated {
		return fmt.Sprintf("machine file: a ping-pong here just now took %.2fx what %s says (one way, %s): this computer's communication changed%s, so validate measured it (predict bench's suite, not saved) and predicted with that; run `predict bench` here to keep a description of it",
			s.Ratio, s.Machine, pairs, when)
	}
	return fmt.Sprintf("machine file: a ping-pong here just now took %.2fx what %s says (one way, %s): this computer's communication changed%s, and every predicted exchange carries the difference; %s",
		s.Ratio, s.Machine, pairs, when, recalibrate)
}
