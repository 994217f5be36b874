package model

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Config says how to load packages.
type Config struct {
	Dir        string   // directory to resolve patterns in; "" for the current one
	Env        []string // environment for the go command; nil for the process's
	BuildFlags []string // extra flags for the go command, e.g. "-tags=openmpi"
	Tests      bool     // include test packages
}

// Program is the model of a set of packages.
type Program struct {
	Fset     *token.FileSet
	SSA      *ssa.Program
	Packages []*ssa.Package // the analysed packages, as named on the command line
	Funcs    []*Func        // every analysed function with a body, in source order

	byName map[string]*Func
}

// Func returns the function with the given name (as in Func.Name), or nil.
func (p *Program) Func(name string) *Func { return p.byName[name] }

// LoadError reports packages that failed to load or type-check; each entry
// of Errors carries its position.
type LoadError struct{ Errors []packages.Error }

// PathAdvice is what to give instead of a package path that names nothing.
const PathAdvice = "give the directory of the program's main package (./examples/heat, or a path into another module) or its import path"

// ErrorText is a loading error as the user reads it, and whether it is
// about the package path itself: the go command gives those no position
// ("-"), so their message stands alone.
func ErrorText(e packages.Error) (text string, aboutPath bool) {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg, true
	}
	return e.Error(), false
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("model: loading packages:")
	for i, err := range e.Errors {
		if i == 10 {
			fmt.Fprintf(&b, "\n\t(and %d more)", len(e.Errors)-10)
			break
		}
		text, _ := ErrorText(err)
		b.WriteString("\n\t")
		b.WriteString(text)
	}
	aboutPath := func(e packages.Error) bool { _, p := ErrorText(e); return p }
	if slices.ContainsFunc(e.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError }) {
		b.WriteString("\n\tthe program must build (go build) before it can be modelled; fix the errors above")
	} else if slices.ContainsFunc(e.Errors, aboutPath) {
		b.WriteString("\n\t" + PathAdvice)
	}
	return b.String()
}

// loadMode is what building SSA of the named packages needs; dependencies
// come from export data, without syntax, so only named packages have bodies.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// PackageDir says where to load or build the package pattern given
// relative to dir: a pattern that names a directory is taken from inside
// it, as ".", so that a program in another module (its own go.mod)
// resolves against that module; any other pattern stays as it is.
func PackageDir(dir, pattern string) (string, string, error) {
	path := filepath.Join(dir, pattern)
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return dir, pattern, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", fmt.Errorf("model: %w", err)
	}
	return abs, ".", nil
}

// LoadPackages loads the packages matching patterns (as go build takes them)
// with their syntax and types. Errors from the go command, the parser or the
// type checker come back as a *LoadError.
func LoadPackages(cfg Config, patterns ...string) ([]*packages.Package, error) {
	if len(patterns) == 1 {
		dir, pattern, err := PackageDir(cfg.Dir, patterns[0])
		if err != nil {
			return nil, err
		}
		cfg.Dir, patterns = dir, []string{pattern}
	}
	pcfg := &packages.Config{Mode: loadMode, Dir: cfg.Dir, Env: cfg.Env, BuildFlags: cfg.BuildFlags, Tests: cfg.Tests}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("model: loading packages: %w", err)
	}
	var errs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) { errs = append(errs, compileErrors(p.Errors)...) })
	if len(errs) > 0 {
		return nil, &LoadError{Errors: errs}
	}
	if len(pkgs) == 0 {
		msg := fmt.Sprintf("model: no packages match %s", strings.Join(patterns, " "))
		if why := goListSays(cfg, patterns); why != "" {
			dir := cfg.Dir
			if dir == "" {
				dir, _ = os.Getwd()
			}
			msg += " in " + dir + "; the go command says:\n" + why
		}
		return nil, errors.New(msg)
	}
	return pkgs, nil
}

// compileErrors drops the go command's report of a package's failed
// compilation ("# pkg" and the compiler's lines, relative to the package)
// when the parser or the type checker reported the same mistakes with
// full positions: each once is enough.
func compileErrors(errs []packages.Error) []packages.Error {
	checked := slices.ContainsFunc(errs, func(e packages.Error) bool {
		return e.Kind == packages.ParseError || e.Kind == packages.TypeError
	})
	if !checked {
		return errs
	}
	return slices.DeleteFunc(slices.Clone(errs), func(e packages.Error) bool {
		return e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ")
	})
}

// goListSays is what `go list` prints on stderr for the patterns, or "".
// go/packages returns no package and no error when the go command fails
// before listing any (a go.mod that needs `go mod tidy`, a module
// missing from it), and its message is what tells the user what to do.
func goListSays(cfg Config, patterns []string) string {
	args := append(append([]string{"list", "-find"}, cfg.BuildFlags...), patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = cfg.Dir
	if cfg.Env != nil {
		cmd.Env = cfg.Env
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		return ""
	}
	return strings.TrimSpace(stderr.String())
}

// BuildSSA builds SSA for the loaded packages, instantiating generics and
// treating os.Exit, log.Fatal*, runtime.Goexit and mpi's Abort as calls
// that do not return.
func BuildSSA(pkgs []*packages.Package) (*ssa.Program, []*ssa.Package) {
	prog, spkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.SetNoReturn(noReturn)
	prog.Build()
	return prog, spkgs
}

func noReturn(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "os", "syscall":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case MPIPath:
		return name == "Abort"
	}
	return false
}

// Load loads the packages matching patterns, builds their SSA and the
// control trees of all their functions. A single main package comes with
// the packages of its module it imports (the program's own code; main is
// Packages[0]).
func Load(cfg Config, patterns ...string) (*Program, error) {
	pkgs, err := LoadPackages(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 1 && pkgs[0].Name == "main" && len(ownImports(pkgs[0])) > 0 {
		if pkgs, err = withOwnPackages(cfg, patterns[0], pkgs[0]); err != nil {
			return nil, err
		}
	}
	prog, spkgs := BuildSSA(pkgs)
	return Build(prog, pkgs, spkgs)
}

// Build makes the control trees of every function of spkgs (the SSA of
// pkgs) that has a body, closures and generic instances included.
func Build(prog *ssa.Program, pkgs []*packages.Package, spkgs []*ssa.Package) (*Program, error) {
	c := &classifier{
		user:  map[*ssa.Package]bool{},
		files: map[*token.File]*ast.File{},
		fset:  prog.Fset,
		sizes: types.SizesFor("gc", runtime.GOARCH),
		calls: map[*ast.File]map[token.Pos]*ast.CallExpr{},
	}
	p := &Program{Fset: prog.Fset, SSA: prog, byName: map[string]*Func{}}
	for i, sp := range spkgs {
		if sp == nil {
			continue
		}
		c.user[sp] = true
		p.Packages = append(p.Packages, sp)
		for _, f := range pkgs[i].Syntax {
			c.files[prog.Fset.File(f.FileStart)] = f
		}
		if pkgs[i].TypesSizes != nil {
			c.sizes = pkgs[i].TypesSizes
		}
	}
	fns := userFuncs(spkgs)
	// Functions are independent, so they are built in parallel. Instances
	// of generic functions are found through the calls that need them and
	// built in further rounds.
	var (
		mu      sync.Mutex
		errs    []error
		pending []*ssa.Function
	)
	seen := map[*ssa.Function]bool{}
	for _, fn := range fns {
		seen[fn] = true
	}
	c.instance = func(fn *ssa.Function) {
		mu.Lock()
		defer mu.Unlock()
		if !seen[fn] && len(fn.Blocks) > 0 && c.user[pkgOf(fn)] {
			seen[fn] = true
			pending = append(pending, fn)
		}
	}
	for len(fns) > 0 {
		built := make([]*Func, len(fns))
		var wg sync.WaitGroup
		next := make(chan int)
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for i := range next {
					f, err := buildFunc(fns[i], FuncName(fns[i]), c)
					if err != nil {
						mu.Lock()
						errs = append(errs, err)
						mu.Unlock()
						continue
					}
					built[i] = f
				}
			})
		}
		for i := range fns {
			next <- i
		}
		close(next)
		wg.Wait()
		for _, f := range built {
			if f != nil {
				p.Funcs = append(p.Funcs, f)
			}
		}
		fns, pending = pending, nil
	}
	slices.SortFunc(p.Funcs, func(a, b *Func) int {
		if a.SSA.Pos() != b.SSA.Pos() {
			return int(a.SSA.Pos() - b.SSA.Pos())
		}
		return strings.Compare(a.Name, b.Name)
	})
	for _, f := range p.Funcs {
		p.byName[f.Name] = f
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return p, errors.Join(errs...)
}

// userFuncs lists the functions declared in pkgs that have bodies: package
// functions, methods of declared types, and the closures inside them.
func userFuncs(pkgs []*ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || len(fn.Blocks) == 0 {
			return
		}
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, pkg := range pkgs {
		if pkg == nil {
			continue
		}
		names := make([]string, 0, len(pkg.Members))
		for name := range pkg.Members {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			switch m := pkg.Members[name].(type) {
			case *ssa.Function:
				add(m)
			case *ssa.Type:
				named, ok := types.Unalias(m.Type()).(*types.Named)
				if !ok || types.IsInterface(named) {
					continue
				}
				for i := range named.NumMethods() {
					add(pkg.Prog.FuncValue(named.Method(i)))
				}
			}
		}
	}
	return out
}

// FuncName is the function's name in IDs: package name, dot, the name
// relative to its package.
func FuncName(fn *ssa.Function) string {
	pkg := pkgOf(fn)
	if pkg == nil {
		return fn.String()
	}
	if top := outermost(fn); top != fn && top.Signature.Recv() != nil && strings.HasPrefix(fn.Name(), top.Name()) {
		// A closure of a method is named after the method with its
		// receiver (main.(*CG).Step$1), as the profiler's syntax names
		// it: go/ssa's Step$1 alone would give the closures of CG.Step
		// and Jacobi.Step one name, and their regions one ID.
		return FuncName(top) + strings.TrimPrefix(fn.Name(), top.Name())
	}
	if fn.Signature.Recv() == nil {
		return pkg.Pkg.Name() + "." + fn.Name() // closures are "outer$1", instances "F[int]"
	}
	return pkg.Pkg.Name() + "." + fn.RelString(pkg.Pkg)
}

// outermost is the declared function fn's closures are nested in, fn
// itself when it is not a closure.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
