//go:build openmpi || mpich

#include <stdlib.h>
#include <string.h>
#include "ompi_helpers.h"

// Handle tables. Communicator 0 is MPI_COMM_WORLD. Freed slots hold the
// null handle and are reused.
static MPI_Comm *comms;
static int ncomms, capcomms;
static MPI_Request *reqs;
static int nreqs, capreqs;

static int grow(void **tab, int *cap, size_t elem) {
	int ncap = *cap ? 2 * *cap : 64;
	void *t = realloc(*tab, (size_t)ncap * elem);
	if (t == NULL) {
		return -1;
	}
	*tab = t;
	*cap = ncap;
	return 0;
}

static int comm_add(MPI_Comm c) {
	for (int i = 1; i < ncomms; i++) {
		if (comms[i] == MPI_COMM_NULL) {
			comms[i] = c;
			return i;
		}
	}
	if (ncomms == capcomms && grow((void **)&comms, &capcomms, sizeof *comms) != 0) {
		return -1;
	}
	comms[ncomms] = c;
	return ncomms++;
}

static int req_add(MPI_Request r) {
	for (int i = 0; i < nreqs; i++) {
		if (reqs[i] == MPI_REQUEST_NULL) {
			reqs[i] = r;
			return i;
		}
	}
	if (nreqs == capreqs && grow((void **)&reqs, &capreqs, sizeof *reqs) != 0) {
		return -1;
	}
	reqs[nreqs] = r;
	return nreqs++;
}

// The codes follow the Go dtype constants in types.go.
static MPI_Datatype dtype(int code) {
	switch (code) {
	case 0: return MPI_INT8_T;
	case 1: return MPI_INT16_T;
	case 2: return MPI_INT32_T;
	case 3: return MPI_INT64_T;
	case 4: return MPI_UINT8_T;
	case 5: return MPI_UINT16_T;
	case 6: return MPI_UINT32_T;
	case 7: return MPI_UINT64_T;
	case 8: return MPI_FLOAT;
	case 9: return MPI_DOUBLE;
	case 10: return MPI_C_FLOAT_COMPLEX;
	case 11: return MPI_C_DOUBLE_COMPLEX;
	}
	return MPI_DATATYPE_NULL;
}

// The codes follow the Go Op constants in types.go.
static MPI_Op op(int code) {
	switch (code) {
	case 0: return MPI_SUM;
	case 1: return MPI_PROD;
	case 2: return MPI_MIN;
	case 3: return MPI_MAX;
	}
	return MPI_OP_NULL;
}

static int src(int s) { return s < 0 ? MPI_ANY_SOURCE : s; }
static int tag(int t) { return t < 0 ? MPI_ANY_TAG : t; }

static void status_out(MPI_Status *s, int rc, int *st) {
	int n = 0;
	MPI_Get_count(s, MPI_BYTE, &n);
	st[PP_ST_SOURCE] = s->MPI_SOURCE;
	st[PP_ST_TAG] = s->MPI_TAG;
	st[PP_ST_BYTES] = n;
	st[PP_ST_ERROR] = rc;
}

int pp_init(int *provided) {
	int done = 0;
	MPI_Initialized(&done);
	if (!done) {
		int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, provided);
		if (rc != MPI_SUCCESS) {
			return rc;
		}
	} else {
		MPI_Query_thread(provided);
	}
	if (ncomms == 0) {
		if (grow((void **)&comms, &capcomms, sizeof *comms) != 0) {
			return MPI_ERR_NO_MEM;
		}
		comms[0] = MPI_COMM_WORLD;
		ncomms = 1;
	}
	// Errors come back to Go, which names the ranks and aborts the job.
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

int pp_finalize(void) {
	int init = 0, fin = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (!init || fin) {
		return MPI_SUCCESS;
	}
	return MPI_Finalize();
}

void pp_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int pp_is_truncate(int rc) {
	int cls = rc;
	MPI_Error_class(rc, &cls);
	return cls == MPI_ERR_TRUNCATE;
}

void pp_error_string(int rc, char *buf, int len) {
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;
	if (MPI_Error_string(rc, s, &n) != MPI_SUCCESS) {
		n = 0;
	}
	if (n >= len) {
		n = len - 1;
	}
	memcpy(buf, s, (size_t)n);
	buf[n] = 0;
}

int pp_comm_rank(int comm, int *rank) { return MPI_Comm_rank(comms[comm], rank); }
int pp_comm_size(int comm, int *size) { return MPI_Comm_size(comms[comm], size); }

static int comm_new(MPI_Comm nc, int *out) {
	if (nc == MPI_COMM_NULL) {
		*out = -1;
		return MPI_SUCCESS;
	}
	int rc = MPI_Comm_set_errhandler(nc, MPI_ERRORS_RETURN);
	if (rc != MPI_SUCCESS) {
		return rc;
	}
	*out = comm_add(nc);
	return *out < 0 ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int pp_comm_dup(int comm, int *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_dup(comms[comm], &nc);
	return rc != MPI_SUCCESS ? rc : comm_new(nc, out);
}

int pp_comm_split(int comm, int color, int key, int *out) {
	MPI_Comm nc;
	int rc = MPI_Comm_split(comms[comm], color < 0 ? MPI_UNDEFINED : color, key, &nc);
	return rc != MPI_SUCCESS ? rc : comm_new(nc, out);
}

int pp_comm_free(int comm) {
	if (comm <= 0) {
		return MPI_SUCCESS;
	}
	return MPI_Comm_free(&comms[comm]); // sets the slot to MPI_COMM_NULL
}

int pp_world_rank(int comm, int rank) {
	MPI_Group g, w;
	int out = rank;
	if (rank < 0 || comm == 0) {
		return rank;
	}
	MPI_Comm_group(comms[comm], &g);
	MPI_Comm_group(MPI_COMM_WORLD, &w);
	MPI_Group_translate_ranks(g, 1, &rank, w, &out);
	MPI_Group_free(&g);
	MPI_Group_free(&w);
	return out;
}

int pp_send(void *buf, int count, int dt, int dest, int t, int comm) {
	return MPI_Send(buf, count, dtype(dt), dest, t, comms[comm]);
}

int pp_recv(void *buf, int count, int dt, int s, int t, int comm, int *st) {
	MPI_Status status;
	int rc = MPI_Recv(buf, count, dtype(dt), src(s), tag(t), comms[comm], &status);
	status_out(&status, rc, st);
	return rc;
}

int pp_sendrecv(void *sbuf, int scount, int dest, int stag, void *rbuf, int rcount, int s, int rtag, int dt, int comm, int *st) {
	MPI_Status status;
	int rc = MPI_Sendrecv(sbuf, scount, dtype(dt), dest, stag, rbuf, rcount, dtype(dt), src(s), tag(rtag), comms[comm], &status);
	status_out(&status, rc, st);
	return rc;
}

int pp_isend(void *buf, int count, int dt, int dest, int t, int comm, int *req) {
	MPI_Request r;
	int rc = MPI_Isend(buf, count, dtype(dt), dest, t, comms[comm], &r);
	if (rc == MPI_SUCCESS) {
		*req = req_add(r);
	}
	return rc;
}

int pp_irecv(void *buf, int count, int dt, int s, int t, int comm, int *req) {
	MPI_Request r;
	int rc = MPI_Irecv(buf, count, dtype(dt), src(s), tag(t), comms[comm], &r);
	if (rc == MPI_SUCCESS) {
		*req = req_add(r);
	}
	return rc;
}

// MPI_Wait and MPI_Test set a completed request to MPI_REQUEST_NULL, which
// frees its slot.
int pp_wait(int req, int *st) {
	MPI_Status status;
	int rc = MPI_Wait(&reqs[req], &status);
	status_out(&status, rc, st);
	return rc;
}

int pp_test(int req, int *flag, int *st) {
	MPI_Status status;
	int rc = MPI_Test(&reqs[req], flag, &status);
	if (*flag || rc != MPI_SUCCESS) {
		status_out(&status, rc, st);
	}
	return rc;
}

int pp_waitall(int n, int *idx, int *sts) {
	MPI_Request *rs = malloc((size_t)n * sizeof *rs);
	MPI_Status *ss = malloc((size_t)n * sizeof *ss);
	if (rs == NULL || ss == NULL) {
		free(rs);
		free(ss);
		return MPI_ERR_NO_MEM;
	}
	for (int i = 0; i < n; i++) {
		rs[i] = reqs[idx[i]];
	}
	int rc = MPI_Waitall(n, rs, ss);
	for (int i = 0; i < n; i++) {
		reqs[idx[i]] = rs[i];
		int e = rc;
		if (rc == MPI_ERR_IN_STATUS) {
			e = ss[i].MPI_ERROR;
		}
		status_out(&ss[i], e, sts + PP_ST_LEN * i);
	}
	free(rs);
	free(ss);
	return rc;
}

int pp_cancel(int req) { return MPI_Cancel(&reqs[req]); }

int pp_barrier(int comm) { return MPI_Barrier(comms[comm]); }

int pp_bcast(void *buf, int count, int dt, int root, int comm) {
	return MPI_Bcast(buf, count, dtype(dt), root, comms[comm]);
}

int pp_reduce(void *sbuf, void *rbuf, int count, int dt, int o, int root, int comm) {
	return MPI_Reduce(sbuf, rbuf, count, dtype(dt), op(o), root, comms[comm]);
}

int pp_allreduce(void *sbuf, void *rbuf, int count, int dt, int o, int comm) {
	return MPI_Allreduce(sbuf, rbuf, count, dtype(dt), op(o), comms[comm]);
}

int pp_gatherv(void *sbuf, int scount, void *rbuf, int *counts, int *displs, int dt, int root, int comm) {
	return MPI_Gatherv(sbuf, scount, dtype(dt), rbuf, counts, displs, dtype(dt), root, comms[comm]);
}

int pp_scatterv(void *sbuf, int *counts, int *displs, void *rbuf, int rcount, int dt, int root, int comm) {
	return MPI_Scatterv(sbuf, counts, displs, dtype(dt), rbuf, rcount, dtype(dt), root, comms[comm]);
}

int pp_allgather(void *sbuf, int count, void *rbuf, int dt, int comm) {
	return MPI_Allgather(sbuf, count, dtype(dt), rbuf, count, dtype(dt), comms[comm]);
}

int pp_allgatherv(void *sbuf, int scount, void *rbuf, int *counts, int *displs, int dt, int comm) {
	return MPI_Allgatherv(sbuf, scount, dtype(dt), rbuf, counts, displs, dtype(dt), comms[comm]);
}

int pp_alltoallv(void *sbuf, int *scounts, int *sdispls, void *rbuf, int *rcounts, int *rdispls, int dt, int comm) {
	return MPI_Alltoallv(sbuf, scounts, sdispls, dtype(dt), rbuf, rcounts, rdispls, dtype(dt), comms[comm]);
}
