package prediction

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/profiler"
)

// loadModel builds the model of the program's own code: its main package
// and the packages of its module that it imports, the set the profiler
// instruments. A kernel in a package of its own is then interpreted and
// its reduced loops costed from the profile, as code of the main package
// is; loaded as a library, its calls cost only the call sites' own time
// and the prediction left the kernel out.
func loadModel(dir, pattern string) (*model.Program, error) {
	pkgs, err := model.LoadPackages(model.Config{Dir: dir}, pattern)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 || pkgs[0].Name != "main" {
		return nil, fmt.Errorf("prediction: %s is not a single main package", pattern)
	}
	if !importsOwnPackages(pkgs[0]) {
		ssaProg, spkgs := model.BuildSSA(pkgs)
		return model.Build(ssaProg, pkgs, spkgs)
	}
	// The main package loaded without its dependencies' syntax above (for
	// its errors); the profiler's loader has every own package's.
	prog, err := profiler.LoadProgram(dir, pattern)
	if err != nil {
		return nil, err
	}
	ssaProg, spkgs := model.BuildSSA(prog.Packages)
	return model.Build(ssaProg, prog.Packages, spkgs)
}

// importsOwnPackages reports whether main imports a package of its own
// module other than the mpi runtime (which lives in parpredict's module
// with the examples).
func importsOwnPackages(main *packages.Package) bool {
	if main.Module == nil {
		return false
	}
	for path := range main.Imports {
		if strings.HasPrefix(path, main.Module.Path+"/") && path != mpiImportPath {
			return true
		}
	}
	return false
}

const mpiImportPath = "github.com/parpredict/parpredict/mpi"
