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
	"strings.Trim", "strings.TrimLeft", "strings.TrimRight", "strings.TrimPrefix", "strings.TrimSuffix",
	"strings.Cut", "strings.CutPrefix", "strings.CutSuffix", "strings.LastIndex", "strings.IndexAny",
	"strings.IndexRune", "strings.ContainsAny", "strings.Compare", "strings.Replace", "strings.ReplaceAll",
	"strings.SplitN", "strings.ToTitle",
	"bytes.Equal", "bytes.Compare", "bytes.Contains", "bytes.Count", "bytes.HasPrefix", "bytes.HasSuffix",
	"bytes.Index", "bytes.IndexByte", "bytes.LastIndex",
	"slices.Contains", "slices.Index", "slices.Equal", "slices.Max", "slices.Min",
	// random numbers: the generator's state is all they write (a Rand's
	// through its receiver, the package functions a hidden global one);
	// the values are unknown to the interpreter anyway, so a Monte Carlo
	// loop is reduced instead of run sample by sample
	"math/rand.Float64", "math/rand.Float32", "math/rand.Int", "math/rand.Intn", "math/rand.Int31",
	"math/rand.Int31n", "math/rand.Int63", "math/rand.Int63n", "math/rand.Uint32", "math/rand.Uint64",
	"math/rand.NormFloat64", "math/rand.ExpFloat64",
	"math/rand.Rand.Float64", "math/rand.Rand.Float32", "math/rand.Rand.Int", "math/rand.Rand.Intn",
	"math/rand.Rand.Int31", "math/rand.Rand.Int31n", "math/rand.Rand.Int63", "math/rand.Rand.Int63n",
	"math/rand.Rand.Uint32", "math/rand.Rand.Uint64", "math/rand.Rand.NormFloat64", "math/rand.Rand.ExpFloat64",
	"math/rand/v2.Float64", "math/rand/v2.Float32", "math/rand/v2.Int", "math/rand/v2.IntN", "math/rand/v2.Int64",
	"math/rand/v2.Int64N", "math/rand/v2.Uint64", "math/rand/v2.NormFloat64", "math/rand/v2.ExpFloat64",
	"math/rand/v2.Rand.Float64", "math/rand/v2.Rand.Float32", "math/rand/v2.Rand.Int", "math/rand/v2.Rand.IntN",
	"math/rand/v2.Rand.Int64", "math/rand/v2.Rand.Int64N", "math/rand/v2.Rand.Uint64",
	"math/rand/v2.Rand.NormFloat64", "math/rand/v2.Rand.ExpFloat64",
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
