//go:build mpich && !openmpi

package mpi

// #cgo pkg-config: mpich
import "C"

const backendName = "mpich"
