package loopnest

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// MPIPath is the import path of the SPMD API whose calls are communication.
const MPIPath = "github.com/parpredict/parpredict/mpi"

// Registry lists the library functions a reducible nest may call: functions
// whose only effect is their result (math.Sqrt) or writes into memory passed
// to them, so skipping them cannot change later control flow or
// communication. Names are "path.Func" for functions, "path.Type.Method"
// for methods, "path" for a whole package, and the builtin's bare name.
type Registry struct {
	names map[string]bool
}

// DefaultPure is the registry used when none is given.
var DefaultPure = []string{
	// builtins: append, copy and clear write memory the nest owns
	"len", "cap", "min", "max", "append", "copy", "clear", "complex", "real", "imag", "new", "make",
	// whole packages of pure functions
	"math", "math/bits", "math/cmplx", "unicode", "unicode/utf8",
	// pure functions of other packages
	"strconv.Atoi", "strconv.Itoa", "strconv.ParseInt", "strconv.ParseUint", "strconv.ParseFloat",
	"strconv.ParseBool", "strconv.FormatInt", "strconv.FormatUint", "strconv.FormatFloat",
	"strconv.FormatBool", "strconv.Quote",
	"strings.Contains", "strings.ContainsRune", "strings.Count", "strings.EqualFold", "strings.Fields",
	"strings.HasPrefix", "strings.HasSuffix", "strings.Index", "strings.IndexByte", "strings.Join",
	"strings.Repeat", "strings.Split", "strings.ToLower", "strings.ToUpper", "strings.TrimSpace",
	"slices.Contains", "slices.Index", "slices.Equal", "slices.Max", "slices.Min",
	// the SPMD API's non-communicating calls
	MPIPath + ".Comm.Rank", MPIPath + ".Comm.Size", MPIPath + ".Wtime", MPIPath + ".NP",
}

// NewRegistry returns a registry of the given names.
func NewRegistry(names ...string) *Registry {
	r := &Registry{names: map[string]bool{}}
	for _, n := range names {
		r.names[n] = true
	}
	return r
}

// Names returns the registry's names, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.names))
	for n := range r.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PureBuiltin reports whether the builtin is in the registry.
func (r *Registry) PureBuiltin(name string) bool { return r.names[name] }

// Pure reports whether a call of fn is in the registry.
func (r *Registry) Pure(fn *ssa.Function) bool {
	path, name := qualified(fn)
	if path == "" {
		return false
	}
	return r.names[path] || r.names[path+"."+name]
}

// qualified returns fn's package path and its name within the package
// (Type.Method for methods), looking through generic instantiation.
func qualified(fn *ssa.Function) (path, name string) {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil {
		return "", ""
	}
	name = obj.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type().String()
		t = t[strings.LastIndex(t, ".")+1:]
		name = strings.TrimLeft(t, "*") + "." + name
	}
	return obj.Pkg().Path(), name
}
