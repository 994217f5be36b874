package profiler

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// StaleError says why a profile no longer fits the program.
type StaleError struct {
	Profile string   // profile file, if known
	Changed []string // files whose content changed
	Added   []string // files of the analysed packages the profile does not know
	Removed []string // files the profile knows that are gone
	Args    []string // arguments now, when they differ from the profile's
	Made    []string // the profile's arguments, when Args is set
	Go      string   // Go version now, when it differs
	Rerun   string   // the command that makes a fresh profile
}

func (e *StaleError) Error() string {
	var why []string
	for _, f := range e.Changed {
		why = append(why, f+" changed")
	}
	for _, f := range e.Added {
		why = append(why, f+" was added")
	}
	for _, f := range e.Removed {
		why = append(why, f+" was removed")
	}
	if e.Go != "" {
		why = append(why, "Go is now "+e.Go)
	}
	name := "the profile"
	if e.Profile != "" {
		name = "profile " + e.Profile
	}
	args := ""
	if e.Args != nil {
		args = fmt.Sprintf("made with the program arguments %q, not %q", e.Made, e.Args)
	}
	if len(why) == 0 {
		return fmt.Sprintf("profiler: %s was %s; run: %s", name, args, e.Rerun)
	}
	msg := fmt.Sprintf("profiler: %s is stale: %s since it was made", name, strings.Join(why, ", "))
	if args != "" {
		msg += ", and it was " + args
	}
	return msg + "; run: " + e.Rerun
}

// OnlyArgs reports whether the profile fits the program but for its
// arguments: predicting other arguments from it is then a choice
// (predict speedup's --profile-args), not an error.
func (e *StaleError) OnlyArgs() bool {
	return e.Args != nil && len(e.Changed)+len(e.Added)+len(e.Removed) == 0 && e.Go == ""
}

// hashSources hashes the Go files of the analysed packages. Paths are
// relative to the module root, so a profile survives moving the checkout.
func hashSources(prog *Program) ([]SourceFile, string, error) {
	root := moduleRoot(prog)
	var files []SourceFile
	for _, pkg := range prog.Packages {
		for _, f := range pkg.GoFiles {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, "", fmt.Errorf("profiler: %w", err)
			}
			sum := sha256.Sum256(data)
			files = append(files, SourceFile{Path: relPath(root, f), SHA256: hex.EncodeToString(sum[:])})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %s\n", f.Path, f.SHA256)
	}
	return files, hex.EncodeToString(h.Sum(nil)), nil
}

func moduleRoot(prog *Program) string {
	if m := prog.Main.Module; m != nil && m.Dir != "" {
		return m.Dir
	}
	return prog.Dir
}

func relPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// Check verifies that p was made from prog's current sources, with args
// and this Go version. A mismatch is a *StaleError naming what changed and
// the command to run. path is the profile's file name, for the message.
func (p *Profile) Check(prog *Program, args []string, path string) error {
	files, hash, err := hashSources(prog)
	if err != nil {
		return err
	}
	e := &StaleError{Profile: path, Rerun: rerunCommand(prog, args, path)}
	if hash != p.Meta.SourceHash {
		old := map[string]string{}
		for _, f := range p.Meta.Sources {
			old[f.Path] = f.SHA256
		}
		for _, f := range files {
			h, ok := old[f.Path]
			switch {
			case !ok:
				e.Added = append(e.Added, f.Path)
			case h != f.SHA256:
				e.Changed = append(e.Changed, f.Path)
			}
			delete(old, f.Path)
		}
		for f := range old {
			e.Removed = append(e.Removed, f)
		}
		sort.Strings(e.Removed)
	}
	if !slices.Equal(args, p.Meta.Args) && !(len(args) == 0 && len(p.Meta.Args) == 0) {
		e.Args, e.Made = append([]string{}, args...), append([]string{}, p.Meta.Args...)
	}
	if runtime.Version() != p.Meta.GoVersion {
		e.Go = runtime.Version()
	}
	if e.Changed == nil && e.Added == nil && e.Removed == nil && e.Args == nil && e.Go == "" {
		return nil
	}
	return e
}

func rerunCommand(prog *Program, args []string, path string) string {
	cmd := "predict profile " + prog.Main.PkgPath
	if path != "" {
		// Into the file that was refused, not the default one.
		cmd += " -o " + shellWord(path)
	}
	if len(args) > 0 {
		cmd += " -- " + strings.Join(args, " ")
	}
	return cmd
}

// shellWord quotes s for a shell when it holds more than plain path
// characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./,:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// LoadFor loads the profile at path for the program pattern (resolved in
// dir) run with args, refusing it with a *StaleError if the program's
// sources, the arguments or the Go version changed since it was made.
// This is how the commands that use a profile should read it.
func LoadFor(path, dir, pattern string, args []string) (*Profile, error) {
	p, err := Load(path)
	if err != nil {
		return nil, err
	}
	prog, err := LoadFiles(dir, pattern)
	if err != nil {
		return nil, err
	}
	if err := p.Check(prog, args, path); err != nil {
		return nil, err
	}
	return p, nil
}
