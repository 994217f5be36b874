package profiler

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Build compiles the program into dir/name: instrumented through a
// go build -overlay file when in is non-nil, else as it is, with the build
// tags given (openmpi: the Open MPI backend). The user's files are never
// written.
func Build(ctx context.Context, prog *Program, in *Instrumented, dir, name string, tags ...string) (string, error) {
	bin := filepath.Join(dir, name)
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	if in != nil {
		overlay, err := writeOverlay(in, dir)
		if err != nil {
			return "", err
		}
		args = append(args, "-overlay", overlay)
	}
	args = append(args, ".")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = prog.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		what := "program"
		if in != nil {
			what = "instrumented program"
		}
		return "", fmt.Errorf("profiler: building the %s in %s: %w\n%s", what, prog.Dir, err, strings.TrimSpace(stderr.String()))
	}
	return bin, nil
}

// writeOverlay writes the instrumented files under dir and the overlay
// JSON that maps the original paths to them.
func writeOverlay(in *Instrumented, dir string) (string, error) {
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", fmt.Errorf("profiler: %w", err)
	}
	paths := make([]string, 0, len(in.Files))
	for p := range in.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	replace := make(map[string]string, len(paths))
	for i, p := range paths {
		dst := filepath.Join(src, fmt.Sprintf("%03d_%s", i, filepath.Base(p)))
		if err := os.WriteFile(dst, in.Files[p], 0o644); err != nil {
			return "", fmt.Errorf("profiler: %w", err)
		}
		replace[p] = dst
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("profiler: %w", err)
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		return "", fmt.Errorf("profiler: %w", err)
	}
	return overlay, nil
}
