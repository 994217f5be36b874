//go:build openmpi || mpich

// C side of the MPI backend. Every MPI handle (communicator, request,
// datatype, op) stays on this side of cgo: Go holds small ints that index
// the tables in ompi_helpers.c, so the Go code is the same for Open MPI
// (pointer handles) and MPICH (integer handles).

#ifndef PARPREDICT_OMPI_HELPERS_H
#define PARPREDICT_OMPI_HELPERS_H

#include <mpi.h>

// Status fields copied to Go: source, tag, count in bytes, error code.
enum { PP_ST_SOURCE, PP_ST_TAG, PP_ST_BYTES, PP_ST_ERROR, PP_ST_LEN };

int pp_init(int *provided);
int pp_finalize(void);
void pp_abort(int code);
int pp_is_truncate(int rc);
void pp_error_string(int rc, char *buf, int len);

int pp_comm_rank(int comm, int *rank);
int pp_comm_size(int comm, int *size);
int pp_comm_dup(int comm, int *out);
int pp_comm_split(int comm, int color, int key, int *out);
int pp_comm_free(int comm);
int pp_world_rank(int comm, int rank);

int pp_send(void *buf, int count, int dt, int dest, int tag, int comm);
int pp_recv(void *buf, int count, int dt, int src, int tag, int comm, int *st);
int pp_sendrecv(void *sbuf, int scount, int dest, int stag, void *rbuf, int rcount, int src, int rtag, int dt, int comm, int *st);
int pp_isend(void *buf, int count, int dt, int dest, int tag, int comm, int *req);
int pp_irecv(void *buf, int count, int dt, int src, int tag, int comm, int *req);
int pp_wait(int req, int *st);
int pp_test(int req, int *flag, int *st);
int pp_waitall(int n, int *reqs, int *sts);
int pp_cancel(int req);

int pp_barrier(int comm);
int pp_bcast(void *buf, int count, int dt, int root, int comm);
int pp_reduce(void *sbuf, void *rbuf, int count, int dt, int op, int root, int comm);
int pp_allreduce(void *sbuf, void *rbuf, int count, int dt, int op, int comm);
int pp_gatherv(void *sbuf, int scount, void *rbuf, int *counts, int *displs, int dt, int root, int comm);
int pp_scatterv(void *sbuf, int *counts, int *displs, void *rbuf, int rcount, int dt, int root, int comm);
int pp_allgather(void *sbuf, int count, void *rbuf, int dt, int comm);
int pp_allgatherv(void *sbuf, int scount, void *rbuf, int *counts, int *displs, int dt, int comm);
int pp_alltoallv(void *sbuf, int *scounts, int *sdispls, void *rbuf, int *rcounts, int *rdispls, int dt, int comm);

#endif
