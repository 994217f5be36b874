package prediction

import (
	"fmt"

	"github.com/parpredict/parpredict/model"
)

// loadModel builds the model of the program's own code: its main package
// and the packages of its module that it imports (model.Load), the set
// the profiler instruments. A kernel in a package of its own is then
// interpreted and its reduced loops costed from the profile, as code of
// the main package is; loaded as a library (before 2026-11-26), its calls
// cost only the call sites' own time and the prediction left the kernel
// out.
func loadModel(dir, pattern string) (*model.Program, error) {
	mp, err := model.Load(model.Config{Dir: dir}, pattern)
	if err != nil {
		return nil, err
	}
	mains := 0
	for _, p := range mp.Packages {
		if p.Pkg.Name() == "main" {
			mains++
		}
	}
	if mains != 1 || mp.Packages[0].Pkg.Name() != "main" {
		return nil, fmt.Errorf("prediction: %s is not a single main package", pattern)
	}
	return mp, nil
}
