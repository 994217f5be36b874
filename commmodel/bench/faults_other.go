//go:build !unix

package bench

import "errors"

var errNoMmap = errors.New("bench: fresh memory cannot be mapped on this platform")

func freshMemory(int) ([]byte, error) { return nil, errNoMmap }

func releaseMemory([]byte) error { return errNoMmap }
