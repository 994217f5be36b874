package commmodel

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/parpredict/parpredict/machines"

	"go.yaml.in/yaml/v3"
)

// InputError is a problem with a machine file, with its position.
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("commmodel: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("commmodel: %s: %s", e.File, e.Msg)
}

// Load reads the machine file at nameOrPath; else, for a name, the file
// machines/NAME.yaml under the current directory, where `predict bench`
// writes this computer's description (a build of predict carries the
// presets of the computer it was built on, which a bench run elsewhere
// must override); else the preset of that name (see package machines).
func Load(nameOrPath string) (*Machine, error) {
	if _, err := os.Stat(nameOrPath); err == nil {
		return LoadFile(nameOrPath)
	}
	if local := LocalFile(nameOrPath); local != "" {
		return LoadFile(local)
	}
	data, file, err := machines.Read(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("commmodel: no machine file %q and no preset of that name (presets: %s)", nameOrPath, strings.Join(machines.Names(), ", "))
	}
	return Parse(file, data)
}

// LocalFile is machines/NAME.yaml under the current directory if name is
// a plain name (no path, no extension) and that file exists, else "".
func LocalFile(name string) string {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return ""
	}
	path := filepath.Join("machines", name+".yaml")
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return path
	}
	return ""
}

// LoadFile reads and validates the machine file at path.
func LoadFile(path string) (*Machine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("commmodel: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates a machine description; file names the
// input in errors.
func Parse(file string, data []byte) (*Machine, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(file, err)
	}
	if len(root.Content) == 0 {
		return nil, &InputError{File: file, Msg: "empty machine description"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	m := &Machine{HandshakeMessages: 3}
	if err := dec.Decode(m); err != nil {
		return nil, yamlError(file, err)
	}
	if err := m.validate(); err != nil {
		var v *fieldError
		if errors.As(err, &v) {
			return nil, &InputError{File: file, Line: lineOf(root.Content[0], v.path), Msg: v.msg}
		}
		return nil, err
	}
	return m, nil
}

// yamlError turns the decoder's "yaml: line N: msg" into an InputError.
func yamlError(file string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		var line int
		msg := te.Errors[0]
		if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
			msg = msg[len(fmt.Sprintf("line %d: ", line)):]
		}
		return &InputError{File: file, Line: line, Msg: msg}
	}
	var line int
	var rest string
	s := err.Error()
	if n, _ := fmt.Sscanf(s, "yaml: line %d:", &line); n == 1 {
		rest = s[len(fmt.Sprintf("yaml: line %d: ", line)):]
		return &InputError{File: file, Line: line, Msg: rest}
	}
	return &InputError{File: file, Msg: s}
}

// fieldError is a validation failure at a path of mapping keys and
// sequence indexes.
type fieldError struct {
	path []any
	msg  string
}

func (e *fieldError) Error() string { return e.msg }

func errAt(msg string, path ...any) error { return &fieldError{path: path, msg: msg} }

// lineOf finds the line of the node at path (keys are strings, indexes
// ints); it falls back to the deepest node found.
func lineOf(n *yaml.Node, path []any) int {
	line := n.Line
	for _, p := range path {
		var next *yaml.Node
		switch k := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == k {
						line = n.Content[i].Line
						next = n.Content[i+1]
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && k < len(n.Content) {
				next = n.Content[k]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

func (m *Machine) validate() error {
	if m.Nodes < 1 {
		return errAt("nodes must be at least 1", "nodes")
	}
	if m.SocketsPerNode < 1 {
		return errAt("sockets_per_node must be at least 1", "sockets_per_node")
	}
	if m.CoresPerSocket < 1 {
		return errAt("cores_per_socket must be at least 1", "cores_per_socket")
	}
	if m.Nodes > 1<<20 || m.SocketsPerNode > 1<<10 || m.CoresPerSocket > 1<<12 {
		return errAt("machine too large", "nodes")
	}
	for _, l := range []struct {
		name string
		p    *LevelParams
	}{{"socket", &m.Levels.Socket}, {"node", &m.Levels.Node}, {"network", &m.Levels.Network}} {
		if err := l.p.validate("levels", l.name); err != nil {
			return err
		}
	}
	if m.EagerLimit < 0 {
		return errAt("eager_limit must not be negative", "eager_limit")
	}
	if m.HandshakeMessages < 0 || m.HandshakeMessages > 8 {
		return errAt("handshake_messages must be between 0 and 8", "handshake_messages")
	}
	if !(m.RendezvousWait >= 0 && m.RendezvousWait <= 60) {
		return errAt("rendezvous_wait must be between 0 and 60 seconds", "rendezvous_wait")
	}
	for _, c := range []struct {
		name string
		c    *ChannelModel
	}{{"adapter", &m.Channels.Adapter}, {"memory", &m.Channels.Memory}, {"link", &m.Channels.Link}} {
		if err := c.c.validate(c.name); err != nil {
			return err
		}
	}
	if !(m.ReduceTimePerByte >= 0) {
		return errAt("reduce_time_per_byte must not be negative", "reduce_time_per_byte")
	}
	if m.Collectives.Rules == "" {
		m.Collectives.Rules = RulesOpenMPI
	}
	if !slices.Contains(RuleSets, m.Collectives.Rules) {
		return errAt(fmt.Sprintf("collectives.rules %q: want one of %s", m.Collectives.Rules, strings.Join(RuleSets, ", ")), "collectives", "rules")
	}
	keys := make([]string, 0, len(m.Collectives.Force))
	for k := range m.Collectives.Force {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		op, err := ParseOp(k)
		if err != nil {
			return errAt(err.Error(), "collectives", "force", k)
		}
		if _, err := ParseAlgorithm(op, m.Collectives.Force[k]); err != nil {
			return errAt(err.Error(), "collectives", "force", k)
		}
	}
	if err := validSlowdown(m.ComputeSlowdown, "compute_slowdown", "compute_slowdown"); err != nil {
		return err
	}
	if f := m.PageFaults; f != nil {
		if f.PageSize < 512 || f.PageSize > 1<<30 || f.PageSize&(f.PageSize-1) != 0 {
			return errAt("page_faults.page_size must be a power of two between 512 B and 1 GiB", "page_faults", "page_size")
		}
		if !(f.Time >= 0) || f.Time > 1 {
			return errAt("page_faults.time must be between 0 and 1 s per page", "page_faults", "time")
		}
		if err := validSlowdown(f.Concurrent, "page_faults.concurrent", "page_faults", "concurrent"); err != nil {
			return err
		}
	}
	if f := m.Refetch; f != nil {
		if !(f.Bandwidth >= 1e6) || f.Bandwidth > 1e15 {
			return errAt("refetch.bandwidth must be between 1e6 and 1e15 bytes per second", "refetch", "bandwidth")
		}
		if !(f.Cache >= 0) || f.Cache > 1<<40 {
			return errAt("refetch.cache must be between 0 and 1 TiB", "refetch", "cache")
		}
	}
	if n := m.Noise; n != nil {
		if err := n.validate(); err != nil {
			return err
		}
	}
	done := map[string]bool{} // patterns whose rows ended
	for i, r := range m.Lockstep {
		if r.Pattern != PatternRing && r.Pattern != PatternAlltoall {
			return errAt(fmt.Sprintf("lockstep pattern %q: want %q or none (a ring)", r.Pattern, PatternAlltoall), "lockstep", i, "pattern")
		}
		if r.Ranks < 2 || !(r.Compute > 0) || r.Compute > 3600 || !(r.Cores > 0) || r.Cores > float64(r.Ranks) {
			return errAt("lockstep rows need ranks >= 2, compute between 0 and 3600 s, and cores between 0 and ranks", "lockstep", i)
		}
		if i == 0 {
			continue
		}
		switch p := m.Lockstep[i-1]; {
		case r.Pattern != p.Pattern:
			done[p.Pattern] = true
			if done[r.Pattern] {
				return errAt("lockstep rows of one pattern must be together", "lockstep", i)
			}
		case r.Ranks < p.Ranks || r.Ranks == p.Ranks && r.Compute <= p.Compute:
			return errAt("lockstep rows must be sorted by ranks, then by compute", "lockstep", i)
		}
	}
	return nil
}

// validSlowdown checks a factor table: ppn >= 1, factor > 0, sorted by
// ppn.
func validSlowdown(rows []SlowdownRow, name string, path ...any) error {
	for i, r := range rows {
		at := append(append([]any{}, path...), i)
		if r.PPN < 1 || !(r.Factor > 0) || math.IsInf(r.Factor, 1) {
			return errAt(name+" rows need ppn >= 1 and factor > 0", at...)
		}
		if i > 0 && r.PPN <= rows[i-1].PPN {
			return errAt(name+" rows must be sorted by ppn", at...)
		}
	}
	return nil
}

func (p *LevelParams) validate(path ...any) error {
	at := func(k string) []any { return append(append([]any{}, path...), k) }
	if !(p.Latency >= 0) || p.Latency > 1 {
		return errAt("latency must be between 0 and 1 s", at("latency")...)
	}
	if !(p.Bandwidth > 0) || p.Bandwidth > 1e15 {
		return errAt("bandwidth must be positive bytes/s", at("bandwidth")...)
	}
	if !(p.SendOverhead >= 0) || !(p.RecvOverhead >= 0) || p.SendOverhead > 1 || p.RecvOverhead > 1 {
		return errAt("overheads must be between 0 and 1 s", at("send_overhead")...)
	}
	for i, pc := range p.Pieces {
		pp := append(at("pieces"), i)
		if pc.From < 0 || (i > 0 && pc.From <= p.Pieces[i-1].From) {
			return errAt("pieces must be sorted by increasing from", pp...)
		}
		if !(pc.Latency >= 0) || pc.Latency > 1 || !(pc.Bandwidth > 0) || pc.Bandwidth > 1e15 {
			return errAt("piece needs latency in [0,1] s and positive bandwidth", pp...)
		}
	}
	return nil
}

func (c *ChannelModel) validate(name string) error {
	if !(c.Latency >= 0) || c.Latency > 1 {
		return errAt("contention latency must be between 0 and 1 s", "channels", name, "latency")
	}
	for i, row := range c.Table {
		at := []any{"channels", name, "table", i}
		if row.Size < 0 || (i > 0 && row.Size <= c.Table[i-1].Size) {
			return errAt("table rows must be sorted by increasing size", at...)
		}
		if len(row.Ratios) == 0 || len(row.Ratios) > 1024 {
			return errAt("table row needs 1 to 1024 ratios", at...)
		}
		for _, r := range row.Ratios {
			if !(r > 0) || r > 1e6 {
				return errAt("ratios must be positive", at...)
			}
		}
	}
	return nil
}
