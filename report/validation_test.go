package report

import (
	"strings"
	"testing"
)

func TestValidation(t *testing.T) {
	act := times(10, 5.2, 2.8, 2.0)
	pred := times(9.5, 5.0, 3.0, 2.3)
	pred.Program, pred.Machine, pred.Args = "./examples/heat", "local", []string{"-n", "500"}
	r, err := Validation(act, pred)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ diff, rel, as, ps float64 }{
		{-0.5, 0.05, 1, 1},
		{-0.2, 0.2 / 5.2, 10 / 5.2, 9.5 / 5},
		{0.2, 0.2 / 2.8, 10 / 2.8, 9.5 / 3},
		{0.3, 0.15, 5, 9.5 / 2.3},
	}
	for i, row := range r.Rows {
		w := want[i]
		if !near(row.Diff, w.diff) || !near(row.AbsDiff, abs(w.diff)) || !near(row.RelErr, w.rel) ||
			!near(row.ActualSpeedup, w.as) || !near(row.PredictedSpeedup, w.ps) {
			t.Errorf("P=%d: %+v, want %+v", row.P, row, w)
		}
	}
	if !near(r.MaxRelErr, 0.15) || r.WorstP != 8 {
		t.Errorf("max error %v at P=%d, want 0.15 at 8", r.MaxRelErr, r.WorstP)
	}
	if mean := (0.05 + 0.2/5.2 + 0.2/2.8 + 0.15) / 4; !near(r.MeanRelErr, mean) {
		t.Errorf("mean error %v, want %v", r.MeanRelErr, mean)
	}
	checkGolden(t, "validation.golden.txt", r.WriteText)
	checkGolden(t, "validation.golden.csv", r.WriteCSV)
	checkGolden(t, "validation.golden.json", r.WriteJSON)
}

// TestValidationRuns shows the runs behind each actual time and their
// spread once a row has several.
func TestValidationRuns(t *testing.T) {
	r, err := Validation(times(10, 5), times(9, 5))
	if err != nil {
		t.Fatal(err)
	}
	r.Rows[0].Runs = []float64{10, 12.5, 11}
	r.Rows[1].Runs = []float64{5}
	if got := r.Rows[0].Spread(); !near(got, 0.25) {
		t.Errorf("spread of 10, 12.5, 11: %v, want 0.25", got)
	}
	if got := r.Rows[1].Spread(); got != 0 {
		t.Errorf("spread of one run: %v, want 0", got)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "spread") || !strings.Contains(b.String(), "25.0%") {
		t.Errorf("text without the runs' spread:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "noise: the 3 runs at P = 1 spread by 25.0%") {
		t.Errorf("a spread of 25 %% without the noise line:\n%s", b.String())
	}
	// A quiet machine: no noise line.
	r.Rows[0].Runs = []float64{10, 10.5, 10.2}
	b.Reset()
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "noise:") {
		t.Errorf("a spread of 5 %% with a noise line:\n%s", b.String())
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestValidationNoSerial(t *testing.T) {
	a := Sweep{Points: []Point{{Config: Config{P: 2}, Time: 2}, {Config: Config{P: 4}, Time: 1}}}
	r, err := Validation(a, a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows[0].ActualSpeedup != 0 || r.MaxRelErr != 0 || r.WorstP != 2 {
		t.Errorf("without P = 1: %+v", r)
	}
}

func TestValidationErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		act, pred Sweep
		want      string
	}{
		{"missing prediction", times(1, 1), times(1), "no prediction for the actual run at P = 2"},
		{"missing actual", times(1), times(1, 1), "no actual run for the prediction at P = 2"},
		{"bad actual", times(0), times(1), "actual point"},
		{"empty predicted", times(1), Sweep{}, "predicted has no points"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Validation(tc.act, tc.pred)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestValidationDrift writes the machine's change of speed since the
// profile, in words that say which way and whether it matters.
func TestValidationDrift(t *testing.T) {
	for _, tc := range []struct {
		ratio float64
		want  string
	}{
		{1.26, "(26.0% slower: the machine slowed down since the profile"},
		{0.8, "(20.0% faster: the machine sped up since the profile"},
		{1.03, "(+3.0%: the machine ran as fast as then)"},
		{0.96, "(-4.0%: the machine ran as fast as then)"},
	} {
		r, err := Validation(times(10, 5), times(9, 5))
		if err != nil {
			t.Fatal(err)
		}
		r.Drift = &MachineDrift{P: 1, Profiled: 0.5, Measured: 0.5 * tc.ratio, Ratio: tc.ratio}
		var b strings.Builder
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "machine: the ranks' bodies at P = 1 took "+secs(0.5*tc.ratio)+" s in these runs, 0.5 s when profiled") ||
			!strings.Contains(b.String(), tc.want) {
			t.Errorf("ratio %v: text\n%s\nwant %q", tc.ratio, b.String(), tc.want)
		}
		b.Reset()
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `"machine_drift": {`) || !strings.Contains(b.String(), `"ratio": `) {
			t.Errorf("JSON without the drift:\n%s", b.String())
		}
	}
}

// TestValidationReprofiled says, above the drift line, that the profile
// was made again after the runs and how far the first one was off.
func TestValidationReprofiled(t *testing.T) {
	r, err := Validation(times(10, 5), times(9, 5))
	if err != nil {
		t.Fatal(err)
	}
	r.Reprofiled = &MachineDrift{P: 1, Profiled: 0.5, Measured: 0.4, Ratio: 0.8}
	r.Drift = &MachineDrift{P: 1, Profiled: 0.41, Measured: 0.4, Ratio: 0.4 / 0.41}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	want := "profile: made again after the runs and predicted with: the ranks' bodies at P = 1 took 0.4 s in the runs, 0.5 s when first profiled (20.0% faster;"
	if i, j := strings.Index(text, want), strings.Index(text, "machine: the ranks' bodies"); i < 0 || j < i {
		t.Errorf("text\n%s\nwant %q above the drift line", text, want)
	}
	b.Reset()
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"reprofiled_after": {`) {
		t.Errorf("JSON without the first profile's drift:\n%s", b.String())
	}
}

// TestValidationMachineMismatch names the computer a machine file was
// calibrated on beside this one, or says that it was not calibrated, and
// what to run; a validation without a mismatch says nothing about it.
func TestValidationMachineMismatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *MachineMismatch
		want []string
	}{
		{"none", nil, nil},
		{"other cpu", &MachineMismatch{Machine: "local", CPU: "AMD EPYC", Cores: 2, Date: "2026-11-23T19:22:03Z", HostCPU: "Intel(R) Xeon(R) Processor", HostCores: 2},
			[]string{"machine file: local was calibrated on 2026-11-23T19:22:03Z on AMD EPYC with 2 cores; this computer is Intel(R) Xeon(R) Processor with 2 cores", "run `predict bench` here"}},
		{"preset", &MachineMismatch{Machine: "ib-qdr", Cores: 8, HostCPU: "Intel(R) Xeon(R) Processor", HostCores: 2},
			[]string{"machine file: ib-qdr was not calibrated by predict bench (no cpu in its provenance)", "(Intel(R) Xeon(R) Processor, 2 cores)", "run `predict bench` here"}},
	} {
		r, err := Validation(times(10, 5), times(9, 5))
		if err != nil {
			t.Fatal(err)
		}
		r.Mismatch = tc.m
		var b strings.Builder
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if tc.m == nil && strings.Contains(b.String(), "machine file:") {
			t.Errorf("%s: text mentions the machine file:\n%s", tc.name, b.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: text\n%s\nwant %q", tc.name, b.String(), w)
			}
		}
		b.Reset()
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), `"machine_mismatch": {`); got != (tc.m != nil) {
			t.Errorf("%s: JSON has machine_mismatch: %v, want %v:\n%s", tc.name, got, tc.m != nil, b.String())
		}
	}
}

// TestValidationMachineStale says how far a machine file's ping-pong is
// from the one measured before the runs, and what to run; JSON carries it.
func TestValidationMachineStale(t *testing.T) {
	r, err := Validation(times(10, 5), times(9, 5))
	if err != nil {
		t.Fatal(err)
	}
	r.Stale = &MachineStale{Machine: "local", Date: "2026-11-25T04:33:55Z", Bytes: []int{8, 65536},
		FileS: []float64{0.9e-6, 3e-6}, MeasuredS: []float64{1.8e-6, 6.3e-6}, Ratio: 2.1}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"machine file: a ping-pong here just now took 2.10x what local says",
		"8 B: 1.8 us measured, 0.9 us in the file", "65536 B: 6.3 us measured, 3 us in the file",
		"changed since 2026-11-25T04:33:55Z", "run `predict bench` here"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("text\n%s\nwant %q", b.String(), w)
		}
	}
	b.Reset()
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"machine_stale": {`) || !strings.Contains(b.String(), `"ratio": 2.1`) {
		t.Errorf("JSON without the stale machine file:\n%s", b.String())
	}
}
