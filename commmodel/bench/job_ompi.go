//go:build openmpi

package bench

const backendName = "mpi Open MPI backend (one process per rank, under mpirun)"
