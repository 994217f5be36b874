package main

import "github.com/parpredict/parpredict/mpi"

const tagPing = 1

// pingpong does reps round trips of one message between ranks 0 and 1:
// rank 0 sends buf and receives the reply into echo; rank 1 receives into
// echo and sends that back.
func pingpong(c *mpi.Comm, buf, echo []byte, reps int) {
	for rep := 0; rep < reps; rep++ {
		if c.Rank() == 0 {
			mpi.Send(c, buf, 1, tagPing)
			mpi.Recv(c, echo, 1, tagPing)
		} else {
			mpi.Recv(c, echo, 0, tagPing)
			mpi.Send(c, echo, 0, tagPing)
		}
	}
}

// fillPattern writes a pattern that depends on the length and position, so
// a message that is truncated, shifted or mixed with another size shows.
func fillPattern(b []byte) {
	n := len(b)
	for i := 0; i < n; i++ {
		b[i] = byte(i*131 + n*7 + i>>8)
	}
}

// verify checks what rank received: rank 1 the pattern, rank 0 the echo
// of what it sent. It returns the first wrong byte, or -1.
func verify(rank int, buf, echo []byte) int {
	want := buf
	if rank != 0 {
		want = make([]byte, len(echo))
		fillPattern(want)
	}
	for i := range want {
		if echo[i] != want[i] {
			return i
		}
	}
	return -1
}
