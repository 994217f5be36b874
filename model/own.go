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
	dir, pat, err := PackageDir(cfg.Dir, pattern)
	if err != nil {
		return nil, err
	}
	cfg.Dir = dir
	// The own imports of own imports: each round loads the new ones
	// alone (their dependencies from export data) to read their imports.
	seen := map[string]bool{}
	for next := ownImports(main); len(next) > 0; {
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
		pkgs, err := LoadPackages(cfg, paths...)
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
	all, err := LoadPackages(cfg, append([]string{pat}, own...)...)
	if err != nil {
		return nil, err
	}
	// Main first, then by path.
	sort.Slice(all, func(i, j int) bool {
		if (all[i].Name == "main") != (all[j].Name == "main") {
			return all[i].Name == "main"
		}
		return all[i].PkgPath < all[j].PkgPath
	})
	return all, nil
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
