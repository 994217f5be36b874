package model

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// withOwnPackages returns main, a main package loaded alone, with the
// packages of its module that it imports, directly or through each other
// (not the mpi runtime, which shares parpredict's module with the
// examples), all loaded in one graph with their syntax: the program's own
// code, which the profiler instruments too. A kernel in a package of its
// own is then modelled, not taken for a library. Main comes first, the
// others by path.
func withOwnPackages(cfg Config, pattern string, main *packages.Package) ([]*packages.Package, error) {
	seen := map[string]bool{}
	next := ownImports(main)
	for len(next) > 0 {
		var paths []string
		for _, p := range next {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			break
		}
		pkgs, err := LoadPackages(Config{Dir: packageDir(cfg, pattern), Env: cfg.Env, BuildFlags: cfg.BuildFlags}, paths...)
		if err != nil {
			return nil, err
		}
		next = next[:0]
		for _, p := range pkgs {
			next = append(next, ownImports(p)...)
		}
	}
	own := make([]string, 0, len(seen))
	for p := range seen {
		own = append(own, p)
	}
	sort.Strings(own)
	dir, pat, err := PackageDir(cfg.Dir, pattern)
	if err != nil {
		return nil, err
	}
	all, err := LoadPackages(Config{Dir: dir, Env: cfg.Env, BuildFlags: cfg.BuildFlags}, append([]string{pat}, own...)...)
	if err != nil {
		return nil, err
	}
	out := make([]*packages.Package, 0, len(all))
	for _, p := range all {
		if p.Name == "main" {
			out = append([]*packages.Package{p}, out...)
		} else {
			out = append(out, p)
		}
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return out[1+i].PkgPath < out[1+j].PkgPath })
	return out, nil
}

// ownImports are the import paths of p in its own module, but the mpi
// runtime's.
func ownImports(p *packages.Package) []string {
	if p.Module == nil {
		return nil
	}
	var out []string
	for path := range p.Imports {
		if strings.HasPrefix(path, p.Module.Path+"/") && path != MPIPath && !strings.HasPrefix(path, MPIPath+"/") {
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out
}

// packageDir is the directory pattern resolves against (PackageDir), or
// cfg.Dir.
func packageDir(cfg Config, pattern string) string {
	if dir, _, err := PackageDir(cfg.Dir, pattern); err == nil {
		return dir
	}
	return cfg.Dir
}
