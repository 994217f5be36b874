// Package atomicfile writes output files so that a reader (or a crash)
// never sees half a file: the data goes into a temporary file in the same
// directory, which is renamed over the destination once complete. Every
// file parpredict writes goes through it. It imports only the standard
// library, so the mpi runtime and the probe runtime compiled into user
// programs can use it.
package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// Write writes data to path atomically, with mode 0644. Errors are the
// os package's, unprefixed: callers add their own context.
func Write(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
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
