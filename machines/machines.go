// Package machines holds the preset machine descriptions, embedded so that
// `predict comm --machine ib-qdr` works from any directory. The files are
// the YAML format of docs/machine-format.md, read by package commmodel.
//
//	gige-smp.yaml   16 nodes of 2 x 4-core SMP, Gigabit Ethernet (SEEDS.md 1, 4)
//	ib-qdr.yaml     16 nodes of 2 x 6-core NUMA, InfiniBand QDR (SEEDS.md 4, 5)
//	local.yaml      this development machine, written by `predict bench`
package machines

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Names lists the presets, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Read returns the contents of the preset called name and its file name.
func Read(name string) (data []byte, file string, err error) {
	file = name + ".yaml"
	data, err = files.ReadFile(file)
	return data, "machines/" + file, err
}
