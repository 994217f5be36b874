//go:build mpich && !openmpi

package bench

const backendName = "mpi MPICH backend (one process per rank, under mpirun)"
