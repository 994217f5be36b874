// Package atomicfile writes output files so that a reader (or a crash)
// never sees half a file: the data goes into a temporary file in the same
// directory, which is renamed over the destination once complete. Every
// file parpredict writes goes through it. It imports only the standard
// library, so the mpi runtime and the probe runtime compiled into user
// programs can use it.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path atomically, with mode 0644. Errors are the
// os package's, unprefixed: callers add their own context.
func Write(path string, data []byte) error {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		// CreateTemp makes the file private; outputs are ordinary files.
		werr = f.Chmod(0o644)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// WriteFunc writes what fn produces to path atomically; if fn fails,
// path is left untouched.
func WriteFunc(path string, fn func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return err
	}
	return Write(path, buf.Bytes())
}

// createTemp makes the temporary file beside path. Its error names path's
// directory, not the temporary file's random name, which the user never
// gave.
func createTemp(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "create a file in", Path: dir, Err: pe.Err}
		}
		return nil, err
	}
	return f, nil
}

// CheckWritable reports whether Write could write path now: its directory
// exists and takes new files, and path is not a directory. Commands check
// their output files before long work (a calibration, a profiling run),
// so that a mistyped directory costs seconds, not the work.
func CheckWritable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory, not a file", path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist (create it first)", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
