package commmodel

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/machines"
)

const minimal = `name: t
nodes: 2
sockets_per_node: 1
cores_per_socket: 2
levels:
  socket: {latency: 1e-7, bandwidth: 1e10}
  node: {latency: 1e-7, bandwidth: 1e10}
  network:
    latency: 1e-6
    bandwidth: 1e9
eager_limit: 4096
`

func TestParseErrorsCarryLines(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"empty", "", "m.yaml: empty machine description"},
		{"syntax", "nodes: [1,\n", "m.yaml:1: did not find expected node content"},
		{"unknown field", minimal + "colour: red\n", "m.yaml:12: field colour not found"},
		{"wrong type", strings.Replace(minimal, "nodes: 2", "nodes: two", 1), "m.yaml:2: cannot unmarshal"},
		{"no nodes", strings.Replace(minimal, "nodes: 2", "nodes: 0", 1), "m.yaml:2: nodes must be at least 1"},
		{"bad bandwidth", strings.Replace(minimal, "bandwidth: 1e9", "bandwidth: -1", 1), "m.yaml:10: bandwidth must be positive"},
		{"pieces unsorted", minimal[:strings.Index(minimal, "eager")] + "    pieces:\n      - {from: 100, latency: 1e-6, bandwidth: 1e9}\n      - {from: 50, latency: 1e-6, bandwidth: 1e9}\n" + "eager_limit: 1\n",
			"m.yaml:13: pieces must be sorted"},
		{"bad rules", minimal + "collectives:\n  rules: lam\n", "m.yaml:13: collectives.rules \"lam\""},
		{"rendezvous wait", minimal + "rendezvous_wait: -1e-3\n", "m.yaml:12: rendezvous_wait must be between 0 and 60 seconds"},
		{"bad force", minimal + "collectives:\n  force:\n    Alltoall: binomial\n", "m.yaml:14: commmodel: no algorithm \"binomial\" for Alltoall"},
		{"bad table", minimal + "channels:\n  adapter:\n    table:\n      - {size: 10, ratios: []}\n", "m.yaml:15: table row needs 1 to 1024 ratios"},
		{"slowdown order", minimal + "compute_slowdown:\n  - {ppn: 2, factor: 1}\n  - {ppn: 1, factor: 1}\n", "m.yaml:14: compute_slowdown rows must be sorted"},
		{"lockstep order", minimal + "lockstep:\n  - {ranks: 2, compute: 1e-3, cores: 1}\n  - {ranks: 2, compute: 1e-4, cores: 1}\n", "m.yaml:14: lockstep rows must be sorted"},
		{"lockstep cores", minimal + "lockstep:\n  - {ranks: 2, compute: 1e-3, cores: 3}\n", "m.yaml:13: lockstep rows need ranks >= 2"},
		{"lockstep pattern", minimal + "lockstep:\n  - {pattern: star, ranks: 2, compute: 1e-3, cores: 1}\n", `m.yaml:13: lockstep pattern "star"`},
		{"lockstep patterns apart", minimal + "lockstep:\n  - {ranks: 2, compute: 1e-3, cores: 1}\n  - {pattern: alltoall, ranks: 2, compute: 1e-3, cores: 1}\n  - {ranks: 4, compute: 1e-3, cores: 1}\n", "m.yaml:15: lockstep rows of one pattern must be together"},
		{"lockstep order in a pattern", minimal + "lockstep:\n  - {ranks: 2, compute: 1e-3, cores: 1}\n  - {pattern: alltoall, ranks: 4, compute: 1e-3, cores: 1}\n  - {pattern: alltoall, ranks: 2, compute: 1e-3, cores: 1}\n", "m.yaml:15: lockstep rows must be sorted"},
		{"page size", minimal + "page_faults:\n  page_size: 1000\n  time: 1e-6\n", "m.yaml:13: page_faults.page_size must be a power of two"},
		{"fault time", minimal + "page_faults:\n  page_size: 4096\n  time: -1e-6\n", "m.yaml:14: page_faults.time must be between"},
		{"refetch bandwidth", minimal + "refetch:\n  bandwidth: 0\n  cache: 1048576\n", "m.yaml:13: refetch.bandwidth must be between"},
		{"refetch cache", minimal + "refetch:\n  bandwidth: 4e10\n  cache: -1\n", "m.yaml:14: refetch.cache must be between"},
		{"noise threshold", minimal + "noise:\n  threshold: 0\n  rate: 10\n  detours: [1e-5]\n  ranks: 1\n", "m.yaml:13: noise.threshold"},
		{"noise rate", minimal + "noise:\n  threshold: 1e-6\n  rate: -1\n  detours: [1e-5]\n  ranks: 1\n", "m.yaml:14: noise.rate"},
		{"noise no detours", minimal + "noise:\n  threshold: 1e-6\n  rate: 10\n  ranks: 1\n", "noise.detours needs"},
		{"noise order", minimal + "noise:\n  threshold: 1e-6\n  rate: 10\n  detours: [2e-5, 1e-5]\n  ranks: 1\n", "noise.detours must be sorted"},
		{"noise below threshold", minimal + "noise:\n  threshold: 1e-5\n  rate: 10\n  detours: [1e-6]\n  ranks: 1\n", "at least the threshold"},
		{"noise saturates", minimal + "noise:\n  threshold: 1e-6\n  rate: 1000\n  detours: [0.5]\n  ranks: 1\n", "below 1"},
		{"noise ranks", minimal + "noise:\n  threshold: 1e-6\n  rate: 10\n  detours: [1e-5]\n", "noise.ranks"},
		{"fault order", minimal + "page_faults:\n  page_size: 4096\n  time: 1e-6\n  concurrent:\n    - {ppn: 2, factor: 1.2}\n    - {ppn: 1, factor: 1}\n",
			"m.yaml:17: page_faults.concurrent rows must be sorted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Errorf("error %v is not an *InputError", err)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	m, err := Parse("m.yaml", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if m.HandshakeMessages != 3 || m.Collectives.Rules != RulesOpenMPI || m.CoresPerNode() != 2 {
		t.Errorf("defaults: handshakes %d, rules %q, cores %d", m.HandshakeMessages, m.Collectives.Rules, m.CoresPerNode())
	}
	if f := m.ComputeFactor(4); f != 1 {
		t.Errorf("compute factor without a table = %v, want 1", f)
	}
	if f := m.FaultTime(100, 2); f != 0 {
		t.Errorf("fault time without page_faults = %v, want 0", f)
	}
}

// RefetchTime charges a working set its bytes over the bandwidth when
// ranks take turns on a core and the core's cache would hold theirs.
func TestRefetchTime(t *testing.T) {
	m, err := Parse("m.yaml", []byte(minimal+"refetch:\n  bandwidth: 1e10\n  cache: 1048576\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bytes, perCore, want float64
	}{{1e5, 2, 1e-5}, {1e5, 4, 1e-5}, {1e5, 1, 0}, {6e5, 2, 0}, {0, 2, 0}} {
		if got := m.RefetchTime(tc.bytes, tc.perCore); got != tc.want {
			t.Errorf("RefetchTime(%g bytes, %g per core) = %g, want %g", tc.bytes, tc.perCore, got, tc.want)
		}
	}
	if got := (&Machine{}).RefetchTime(1e5, 2); got != 0 {
		t.Errorf("RefetchTime without a refetch model = %g, want 0", got)
	}
}

func TestFaultTime(t *testing.T) {
	m, err := Parse("m.yaml", []byte(minimal+"page_faults:\n  page_size: 4096\n  time: 1e-5\n  concurrent:\n    - {ppn: 1, factor: 1}\n    - {ppn: 3, factor: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pages float64
		ppn   int
		want  float64
	}{{10, 1, 1e-4}, {10, 2, 1.5e-4}, {10, 3, 2e-4}, {10, 8, 2e-4}, {0, 2, 0}} {
		if got := m.FaultTime(tc.pages, tc.ppn); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("FaultTime(%g, %d) = %g, want %g", tc.pages, tc.ppn, got, tc.want)
		}
	}
}

func TestPresetsLoad(t *testing.T) {
	for _, name := range machines.Names() {
		m, err := Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.Name != name {
			t.Errorf("preset %s calls itself %q", name, m.Name)
		}
	}
	if _, err := Load("no-such-machine"); err == nil || !strings.Contains(err.Error(), "ib-qdr") {
		t.Errorf("unknown preset: %v, want the list of presets", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	for _, name := range machines.Names() {
		data, _, _ := machines.Read(name)
		f.Add(data)
	}
	f.Add([]byte("nodes: 1\nlevels: {network: {pieces: [{from: -1}]}}"))
	f.Add([]byte(minimal + "lockstep:\n  - {ranks: 2, compute: 1e-3, cores: 1.5}\n  - {pattern: alltoall, ranks: 4, compute: 1e-4, cores: 1.2}\n"))
	f.Add([]byte(minimal + "noise:\n  threshold: 1e-6\n  rate: 100\n  detours: [1e-5, 2e-4]\n  ranks: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		// A machine that loads must be usable: place, price and simulate.
		pl, err := m.Place(min(m.Nodes, 4), min(m.Nodes, 4), 1, Block)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 1 << 20} {
			c := m.Message(pl, 0, pl.P-1, n)
			if c.Total() < 0 {
				t.Fatalf("negative cost %v", c)
			}
		}
		s, err := Generate(Allreduce, m.Select(Allreduce, pl.P, 4096, 0), pl.P, 4096, 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Simulate(s, pl, SimOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, ppn := range []int{1, 2, 64} {
			if ft := m.FaultTime(256, ppn); !(ft >= 0) || math.IsInf(ft, 0) {
				t.Fatalf("fault time %v with %d ranks per node", ft, ppn)
			}
		}
		// An accepted lockstep table gives finite positive cores.
		for _, pattern := range []string{PatternRing, PatternAlltoall} {
			if c, ok := m.EffectiveCoresFor(pattern, 8, 1e-4); ok && !(c > 0 && c <= 8) {
				t.Fatalf("%q lockstep: %v effective cores for 8 ranks", pattern, c)
			}
		}
		// An accepted noise model perturbs any stretch into a finite,
		// non-negative time.
		rng := rand.New(rand.NewPCG(1, 1))
		for _, t0 := range []float64{1e-6, 1e-3, 10} {
			if x := m.Noise.Perturb(t0, rng); !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("noise turned %g s into %v", t0, x)
			}
		}
	})
}

// The example in docs/machine-format.md must load.
func TestDocExampleLoads(t *testing.T) {
	doc, err := os.ReadFile("../docs/machine-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no yaml example in docs/machine-format.md")
	}
	m, err := Parse("machine-format.md", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if m.Collectives.Force["Alltoall"] != "pairwise" || len(m.Levels.Network.Pieces) != 1 {
		t.Errorf("example decoded wrongly: %+v", m)
	}
}

// TestLoadPrefersBenchedFile loads machines/NAME.yaml under the current
// directory, where predict bench writes this computer's file, before the
// preset of that name compiled into the binary.
func TestLoadPrefersBenchedFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "machines"), 0o755); err != nil {
		t.Fatal(err)
	}
	benched := strings.Replace(strings.Replace(minimal, "name: t", "name: local", 1), "cores_per_socket: 2", "cores_per_socket: 16", 1)
	if err := os.WriteFile(filepath.Join(dir, "machines", "local.yaml"), []byte(benched), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	m, err := Load("local")
	if err != nil {
		t.Fatal(err)
	}
	if m.CoresPerNode() != 16 {
		t.Errorf("local: %d cores a node, want the benched file's 16", m.CoresPerNode())
	}
	if m, err := Load("ib-qdr"); err != nil || m.Name != "ib-qdr" {
		t.Errorf("ib-qdr without a file: %v, %v; want the preset", m, err)
	}
	if got := LocalFile("../local"); got != "" {
		t.Errorf("LocalFile of a path: %q", got)
	}
}
