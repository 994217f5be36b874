//go:build openmpi

package mpi

// #cgo pkg-config: ompi
import "C"

const backendName = "openmpi"
