//go:build !openmpi && !mpich

package mpi

import (
	"testing"
	"time"
)

// pooledBuffers counts the free queued-message buffers of 2^k bytes.
func pooledBuffers(k int) int {
	payloadPool.mu.Lock()
	defer payloadPool.mu.Unlock()
	return len(payloadPool.free[k])
}

// emptyPool drops the free queued-message buffers of 2^k bytes, so that a
// queued message's buffer is a new one that returns to the pool.
func emptyPool(k int) {
	payloadPool.mu.Lock()
	defer payloadPool.mu.Unlock()
	for _, b := range payloadPool.free[k] {
		payloadPool.bytes -= cap(b)
	}
	payloadPool.free[k] = nil
}

// A blocking send of a large message waits for its receive: posted while
// the sender waits, the receive gets the message straight from the send
// buffer (no queued buffer is used); posted only after the wait, it gets
// the message from the queue (the send never blocks for good).
func TestLargeSendWaitsForItsReceive(t *testing.T) {
	defer func(old time.Duration) { rendezvousWait = old }(rendezvousWait)
	const n = 300 << 10 // a queued copy takes a buffer of 2^19 bytes
	for _, tc := range []struct {
		name       string
		wait, late time.Duration
		queued     bool
	}{
		{"posted during the wait", 10 * time.Second, 20 * time.Millisecond, false},
		{"posted after the wait", 20 * time.Millisecond, 0, true},
	} {
		rendezvousWait = tc.wait
		emptyPool(19)
		before := pooledBuffers(19)
		var sendTook time.Duration
		var sendDone, recvPosted time.Time // read after Run, which waits for both ranks
		err := Run(2, func(c *Comm) {
			buf := make([]byte, n)
			if c.Rank() == 0 {
				for i := range buf {
					buf[i] = byte(i)
				}
				t0 := time.Now()
				Send(c, buf, 1, 0)
				sendDone = time.Now()
				sendTook = sendDone.Sub(t0)
				c.Barrier()
				return
			}
			if tc.queued {
				c.Barrier() // rank 0's Send has returned: the message is queued
			} else {
				time.Sleep(tc.late)
			}
			recvPosted = time.Now()
			Recv(c, buf, 0, 0)
			if !tc.queued {
				c.Barrier()
			}
			for i := range buf {
				if buf[i] != byte(i) {
					t.Errorf("%s: byte %d is %d", tc.name, i, buf[i])
					return
				}
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// A queued message's buffer returns to the pool once received.
		if queued := pooledBuffers(19) > before; queued != tc.queued {
			t.Errorf("%s: queued %v, want %v (Send took %v)", tc.name, queued, tc.queued, sendTook)
		}
		// Compared with the moment the receive was posted, not with the
		// sleep: rank 0 may start its Send late on a loaded machine.
		if !tc.queued && sendDone.Before(recvPosted) {
			t.Errorf("%s: Send returned %v before the receive was posted", tc.name, recvPosted.Sub(sendDone))
		}
		if tc.queued && sendTook < tc.wait {
			t.Errorf("%s: Send returned after %v, before its wait of %v", tc.name, sendTook, tc.wait)
		}
	}
}

// A large Send to the sending rank itself does not wait for its receive,
// which only the same rank can post once Send returns: it used to wait
// out rendezvousWait every time (5 ms for ten 32 KiB messages at one
// rank).
func TestLargeSendToSelfDoesNotWait(t *testing.T) {
	defer func(old time.Duration) { rendezvousWait = old }(rendezvousWait)
	rendezvousWait = time.Hour
	done := make(chan error, 1)
	go func() {
		done <- Run(1, func(c *Comm) {
			out, in := make([]byte, 32<<10), make([]byte, 32<<10)
			out[7] = 7
			Send(c, out, 0, 0)
			Recv(c, in, 0, 0)
			if in[7] != 7 {
				t.Errorf("received byte 7 = %d", in[7])
			}
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a Send to the rank itself waited for its own receive")
	}
}
