package interpreter

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"
)

// libFunc evaluates a pure library function on known arguments. ok is
// false when it cannot (unknown arguments): the call is then costed and its
// result unknown.
type libFunc func(r *ssaRank, in *ssa.Call, args []value) (v value, ok bool, err error)

// libName is "path.Name" for package-level functions, the full name for
// methods.
func libName(fn *ssa.Function) string {
	if fn.Pkg == nil || fn.Signature.Recv() != nil {
		return fn.String()
	}
	return fn.Pkg.Pkg.Path() + "." + fn.Name()
}

// lib is the library function's name as pureLib knows it, found once.
func (ci *calleeInfo) lib() string {
	if ci.libName == "" {
		ci.libName = libName(ci.fn)
	}
	return ci.libName
}

// library runs a call of a function outside the analysed program.
func (r *ssaRank) library(f *frame, in *ssa.Call, ic *instrCode, ci *calleeInfo, args []value) error {
	fn := ci.fn
	name := ci.lib()
	if fn.Name() == "init" && fn.Signature.Recv() == nil {
		return nil // libraries' package initialisers are not modelled
	}
	if what := startsGoroutine(name); what != "" {
		return r.errorf(in.Pos(), "unsupported construct: %s; %s", what, noChannels)
	}
	if seq, ok := seqOf(ci, args); ok {
		// An iterator a range statement may charge by its elements.
		r.chargeAt(ic.callCost, ic.callSolo, ic.callLabel)
		r.set(f, seq)
		return nil
	}
	if h, ok := pureLib[name]; ok {
		v, ok, err := h(r, in, args)
		if err != nil {
			return r.errorf(in.Pos(), "%s: %v", name, err)
		}
		if ok {
			// Its value is computed here; its time is the profile's, as
			// for any library call (math.Sqrt given through a function
			// value shares a timed call site with a kernel).
			r.chargeAt(ic.callCost, ic.callSolo, ic.callLabel)
			r.set(f, v)
			return nil
		}
	}
	if strings.HasPrefix(name, "fmt.") && r.formatCall(f, in, name, args) {
		r.chargeAt(ic.callCost, ic.callSolo, ic.callLabel)
		return nil
	}
	switch {
	case name == "os.Exit":
		if c := args[0]; c.k == vInt && c.i == 0 {
			r.stack = r.stack[:0]
			return nil
		}
		return r.errorf(in.Pos(), "the program calls os.Exit(%v)%s", args[0], r.printedNote())
	case strings.HasPrefix(name, "log.Fatal") || strings.HasPrefix(name, "log.Panic"):
		return r.errorf(in.Pos(), "the program calls %s%s", name, r.printedNote())
	}
	r.opaqueCall(f, in, ic, args)
	if neverNil[name] {
		// An error of unknown text but never nil: the program's check of
		// it takes the error arm (a usage message and os.Exit) as the real
		// run does, instead of the profile's frequency, which never saw it.
		r.set(f, nonNilError())
	}
	return nil
}

// neverNil are the library functions whose result, an interface, is never
// nil.
var neverNil = map[string]bool{"errors.New": true, "fmt.Errorf": true}

func float1(g func(float64) float64) libFunc {
	return func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vFloat {
			return unknown, false, nil
		}
		return floatv(g(a[0].fl())), true, nil
	}
}

func float2(g func(x, y float64) float64) libFunc {
	return func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vFloat || a[1].k != vFloat {
			return unknown, false, nil
		}
		return floatv(g(a[0].fl(), a[1].fl())), true, nil
	}
}

func strings1(g func(string) string) libFunc {
	return func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vString {
			return unknown, false, nil
		}
		return strv(g(a[0].str())), true, nil
	}
}

func strings2(g func(a, b string) value) libFunc {
	return func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vString || a[1].k != vString {
			return unknown, false, nil
		}
		return g(a[0].str(), a[1].str()), true, nil
	}
}

// nonNilError is an error value of unknown dynamic type and text that is
// not nil.
func nonNilError() value { return value{k: vIface, obj: newObject(unknown, nil)} }

func tuple(vs ...value) value {
	return value{k: vTuple, obj: newDense(vs...)}
}

var nilValue = value{k: vNil}

// bitsCounts are math/bits' counting functions (TrailingZeros64 ...) by
// their name without the width, on a word of w bits.
var bitsCounts = map[string]func(x uint64, w int) int{
	"TrailingZeros": func(x uint64, w int) int { return min(bits.TrailingZeros64(x), w) },
	"LeadingZeros":  func(x uint64, w int) int { return bits.LeadingZeros64(x) - (64 - w) },
	"Len":           func(x uint64, _ int) int { return bits.Len64(x) },
	"OnesCount":     func(x uint64, _ int) int { return bits.OnesCount64(x) },
}

// withBits adds math/bits' counting functions of every width to lib: a
// hypercube's dimension (bits.TrailingZeros(uint(size))) bounds the loop
// of its exchanges.
func withBits(lib map[string]libFunc) map[string]libFunc {
	for name, count := range bitsCounts {
		for _, w := range []int{0, 8, 16, 32, 64} {
			suffix, width := strconv.Itoa(w), w
			if w == 0 {
				suffix, width = "", bits.UintSize
			}
			lib["math/bits."+name+suffix] = func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
				if a[0].k != vInt {
					return unknown, false, nil
				}
				x := uint64(a[0].i)
				if width < 64 {
					x &= 1<<width - 1
				}
				return intv(int64(count(x, width))), true, nil
			}
		}
	}
	return lib
}

// pureLib is the registry of library functions evaluated natively.
var pureLib = withBits(map[string]libFunc{
	"math.Sqrt": float1(math.Sqrt), "math.Abs": float1(math.Abs), "math.Exp": float1(math.Exp),
	"math.Log": float1(math.Log), "math.Log2": float1(math.Log2), "math.Log10": float1(math.Log10),
	"math.Sin": float1(math.Sin), "math.Cos": float1(math.Cos), "math.Tan": float1(math.Tan),
	"math.Atan": float1(math.Atan), "math.Floor": float1(math.Floor), "math.Ceil": float1(math.Ceil),
	"math.Trunc": float1(math.Trunc), "math.Round": float1(math.Round), "math.Cbrt": float1(math.Cbrt),
	"math.Pow": float2(math.Pow), "math.Max": float2(math.Max), "math.Min": float2(math.Min),
	"math.Mod": float2(math.Mod), "math.Hypot": float2(math.Hypot), "math.Atan2": float2(math.Atan2),
	"math.Inf": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vInt {
			return unknown, false, nil
		}
		return floatv(math.Inf(int(a[0].i))), true, nil
	},
	"math.NaN": func(*ssaRank, *ssa.Call, []value) (value, bool, error) { return floatv(math.NaN()), true, nil },
	"math.IsNaN": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vFloat {
			return unknown, false, nil
		}
		return boolv(math.IsNaN(a[0].fl())), true, nil
	},
	"strconv.Itoa": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vInt {
			return unknown, false, nil
		}
		return strv(strconv.Itoa(int(a[0].i))), true, nil
	},
	"strconv.Atoi": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vString {
			return unknown, false, nil
		}
		n, err := strconv.Atoi(a[0].str())
		if err != nil {
			return tuple(intv(0), nonNilError()), true, nil
		}
		return tuple(intv(int64(n)), nilValue), true, nil
	},
	"strconv.ParseFloat": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vString {
			return unknown, false, nil
		}
		x, err := strconv.ParseFloat(a[0].str(), 64)
		if err != nil {
			return tuple(floatv(0), nonNilError()), true, nil
		}
		return tuple(floatv(x), nilValue), true, nil
	},
	"strings.Contains":   strings2(func(a, b string) value { return boolv(strings.Contains(a, b)) }),
	"strings.HasPrefix":  strings2(func(a, b string) value { return boolv(strings.HasPrefix(a, b)) }),
	"strings.HasSuffix":  strings2(func(a, b string) value { return boolv(strings.HasSuffix(a, b)) }),
	"strings.Index":      strings2(func(a, b string) value { return intv(int64(strings.Index(a, b))) }),
	"strings.LastIndex":  strings2(func(a, b string) value { return intv(int64(strings.LastIndex(a, b))) }),
	"strings.Count":      strings2(func(a, b string) value { return intv(int64(strings.Count(a, b))) }),
	"strings.Compare":    strings2(func(a, b string) value { return intv(int64(strings.Compare(a, b))) }),
	"strings.EqualFold":  strings2(func(a, b string) value { return boolv(strings.EqualFold(a, b)) }),
	"strings.TrimPrefix": strings2(func(a, b string) value { return strv(strings.TrimPrefix(a, b)) }),
	"strings.TrimSuffix": strings2(func(a, b string) value { return strv(strings.TrimSuffix(a, b)) }),
	"strings.TrimSpace":  strings1(strings.TrimSpace),
	"strings.ToUpper":    strings1(strings.ToUpper),
	"strings.ToLower":    strings1(strings.ToLower),
	"strings.Repeat": func(_ *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vString || a[1].k != vInt || a[1].i < 0 || int64(len(a[0].str()))*a[1].i > maxStringCells {
			return unknown, false, nil
		}
		return strv(strings.Repeat(a[0].str(), int(a[1].i))), true, nil
	},
	"flag.Int":         flagDef(flagInt),
	"flag.Int64":       flagDef(flagInt),
	"flag.Uint":        flagDef(flagUint),
	"flag.Uint64":      flagDef(flagUint),
	"flag.Float64":     flagDef(flagFloat),
	"flag.Bool":        flagDef(flagBool),
	"flag.String":      flagDef(flagString),
	"flag.Duration":    flagDef(flagDuration),
	"flag.IntVar":      flagVar(flagInt),
	"flag.Int64Var":    flagVar(flagInt),
	"flag.UintVar":     flagVar(flagUint),
	"flag.Uint64Var":   flagVar(flagUint),
	"flag.Float64Var":  flagVar(flagFloat),
	"flag.BoolVar":     flagVar(flagBool),
	"flag.StringVar":   flagVar(flagString),
	"flag.DurationVar": flagVar(flagDuration),
	"flag.Func":        flagCode(flagFunc, 0, 2),
	"flag.BoolFunc":    flagCode(flagBoolFunc, 0, 2),
	"flag.Var":         flagCode(flagValue, 1, 0),
	"flag.TextVar":     flagCode(flagValue, 1, 0),
	"flag.Parse": func(r *ssaRank, in *ssa.Call, _ []value) (value, bool, error) {
		return value{}, true, r.flags.parse(r.opts.Args)
	},
	"flag.Parsed": func(r *ssaRank, _ *ssa.Call, _ []value) (value, bool, error) {
		return boolv(r.flags.parsed), true, nil
	},
	"flag.NArg": func(r *ssaRank, _ *ssa.Call, _ []value) (value, bool, error) {
		return intv(int64(len(r.flags.rest))), true, nil
	},
	"flag.Arg": func(r *ssaRank, _ *ssa.Call, a []value) (value, bool, error) {
		if a[0].k != vInt {
			return unknown, false, nil
		}
		if i := int(a[0].i); i >= 0 && i < len(r.flags.rest) {
			return strv(r.flags.rest[i]), true, nil
		}
		return value{k: vString}, true, nil
	},
	"flag.Args": func(r *ssaRank, _ *ssa.Call, _ []value) (value, bool, error) {
		o := newObject(value{k: vString}, nil)
		for i, s := range r.flags.rest {
			o.set(int64(i), strv(s))
		}
		n := int64(len(r.flags.rest))
		return value{k: vSlice, obj: o, n: n, c: n}, true, nil
	},
})

type flagKind uint8

const (
	flagInt flagKind = iota
	flagUint
	flagFloat
	flagBool
	flagString
	flagDuration
	// flagFunc and flagBoolFunc are flag.Func and BoolFunc, flagValue
	// flag.Var and TextVar: the program's own code takes the value, which
	// the emulation does not run; what that code can reach becomes
	// unknown when the flag is given.
	flagFunc
	flagBoolFunc
	flagValue
)

// flagSet emulates package flag's command line, so that main parses the
// program's arguments as written.
type flagSet struct {
	defs   map[string]flagDefn
	parsed bool
	rest   []string
}

type flagDefn struct {
	kind flagKind
	ptr  value
}

func flagDef(kind flagKind) libFunc {
	return func(r *ssaRank, in *ssa.Call, a []value) (value, bool, error) {
		o := newObject(a[1], nil)
		p := value{k: vPtr, obj: o}
		return p, true, r.flags.define(a[0], kind, p)
	}
}

func flagVar(kind flagKind) libFunc {
	return func(r *ssaRank, in *ssa.Call, a []value) (value, bool, error) {
		r.store(a[0], a[2])
		return value{}, true, r.flags.define(a[1], kind, a[0])
	}
}

// flagCode defines a flag whose value the program's own code takes (a
// function, a flag.Value): the name is argument nameArg, that code
// argument codeArg.
func flagCode(kind flagKind, nameArg, codeArg int) libFunc {
	return func(r *ssaRank, in *ssa.Call, a []value) (value, bool, error) {
		return value{}, true, r.flags.define(a[nameArg], kind, a[codeArg])
	}
}

func (fs *flagSet) define(name value, kind flagKind, p value) error {
	if name.k != vString {
		return fmt.Errorf("flag name is not a constant")
	}
	if fs.defs == nil {
		fs.defs = map[string]flagDefn{}
	}
	fs.defs[name.str()] = flagDefn{kind, p}
	return nil
}

// ignoredFlags are registered by package mpi itself; the rank count comes
// from the sweep, not the arguments.
var ignoredFlags = map[string]bool{"np": true, "mpitrace": true}

func (fs *flagSet) parse(args []string) error {
	fs.parsed = true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			fs.rest = args[i+1:]
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			fs.rest = args[i:]
			return nil
		}
		name := strings.TrimLeft(a, "-")
		val, hasVal := "", false
		if k := strings.IndexByte(name, '='); k >= 0 {
			name, val, hasVal = name[:k], name[k+1:], true
		}
		d, ok := fs.defs[name]
		if !ok {
			if ignoredFlags[name] {
				if !hasVal && i+1 < len(args) {
					i++
				}
				continue
			}
			return fmt.Errorf("flag provided but not defined: -%s", name)
		}
		if (d.kind == flagBool || d.kind == flagBoolFunc) && !hasVal {
			val, hasVal = "true", true
		}
		if !hasVal {
			if i+1 >= len(args) {
				return fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			val = args[i]
		}
		var v value
		switch d.kind {
		case flagInt:
			n, err := strconv.ParseInt(val, 0, 64)
			if err != nil {
				return fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)
			}
			v = intv(n)
		case flagFloat:
			x, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)
			}
			v = floatv(x)
		case flagBool:
			b, err := strconv.ParseBool(val)
			if err != nil {
				return fmt.Errorf("invalid boolean value %q for flag -%s", val, name)
			}
			v = boolv(b)
		case flagString:
			v = strv(val)
		case flagUint:
			n, err := strconv.ParseUint(val, 0, 64)
			if err != nil {
				return fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)
			}
			v = intv(int64(n))
		case flagDuration:
			t, err := time.ParseDuration(val)
			if err != nil {
				return fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)
			}
			v = intv(int64(t))
		default: // the program's code takes it: what it reaches is unknown
			havocReach(d.ptr, 0)
			continue
		}
		d.ptr.obj.set(d.ptr.i, v)
	}
	return nil
}
