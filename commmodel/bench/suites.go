package bench

import (
	"fmt"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

type collective struct {
	op    commmodel.Op
	bytes int
}

// collectives are timed on NP ranks (bytes as commmodel.Generate counts
// them).
var collectives = []collective{
	{commmodel.Barrier, 0}, {commmodel.Bcast, 1024}, {commmodel.Bcast, 65536},
	{commmodel.Allreduce, 8}, {commmodel.Allreduce, 65536},
	{commmodel.Alltoall, 1024}, {commmodel.Alltoall, 65536},
}

func spin(d float64) {
	end := mpi.Wtime() + d
	for mpi.Wtime() < end {
	}
}

// pingPong returns an op in which ranks a and b exchange a message of n
// bytes there and back, rounds times back to back; other ranks do
// nothing.
func pingPong(c *mpi.Comm, a, b, n, rounds int) func() {
	if c.Rank() != a && c.Rank() != b {
		return func() {}
	}
	bufs := offCacheBuffers(n)
	i := 0
	next := func() []byte {
		i++
		return bufs[i%len(bufs)]
	}
	if c.Rank() == a {
		return func() {
			for range rounds {
				buf := next()
				mpi.Send(c, buf, b, tagPing)
				mpi.Recv(c, buf, b, tagPing)
			}
		}
	}
	return func() {
		for range rounds {
			buf := next()
			mpi.Recv(c, buf, a, tagPing)
			mpi.Send(c, buf, a, tagPing)
		}
	}
}

// pingPongRounds is how many round trips of n bytes a ping-pong launch
// makes back to back: 64 up to 4 KiB, fewer for larger messages, one
// from 256 KiB. A round trip's dependency chain keeps them from
// overlapping, so the launch's time over the rounds is one round trip's,
// as a program exchanging messages in a loop sees it. A single round trip
// caught one of two modes of the goroutine backend on the 2-core VM, two
// ranks on one thread or on two cores: calibrations minutes apart fitted
// 0.68, 1.37 and 1.91 us one way, while the pingpong example ran at about
// 2 us per message back to back; 64 round trips read 1.98-2.09 us in
// three runs (docs/bench.md).
func pingPongRounds(n int) int {
	return max(1, min(64, (256<<10)/max(n, 4<<10)))
}

// Messages of offCacheFrom bytes and more are timed from and into memory,
// not cache, as a program's large messages mostly are (the blocks of an
// all-to-all, a broadcast matrix): each launch takes the next of as many
// buffers as make offCacheBytes, more than a processor's last-level
// cache. With one buffer, a megabyte ping-pong ran from cache at 19 GB/s
// on the 2-core VM, and the cost model priced examples/transpose's 2 MiB
// all-to-all copies at that speed (docs/bench.md).
const (
	offCacheFrom  = 512 << 10
	offCacheBytes = 64 << 20
)

// offCacheBuffers returns the buffers a ping-pong of n bytes cycles
// through, written once so that their pages exist before the timing.
func offCacheBuffers(n int) [][]byte {
	count := 1
	if n >= offCacheFrom {
		count = max(1, offCacheBytes/n)
	}
	bufs := make([][]byte, count)
	for i := range bufs {
		bufs[i] = make([]byte, n)
		for j := 0; j < n; j += 4096 {
			bufs[i][j] = 1
		}
	}
	return bufs
}

func collectiveOp(c *mpi.Comm, op commmodel.Op, n int) func() {
	p := c.Size()
	switch op {
	case commmodel.Barrier:
		return c.Barrier
	case commmodel.Bcast:
		buf := make([]byte, n)
		return func() { mpi.Bcast(c, buf, 0) }
	case commmodel.Allreduce:
		in, out := make([]float64, max(n/8, 1)), make([]float64, max(n/8, 1))
		return func() { mpi.Allreduce(c, in, out, mpi.Sum) }
	case commmodel.Alltoall:
		in, out := make([]byte, n*p), make([]byte, n*p)
		return func() { mpi.Alltoall(c, in, out) }
	}
	panic(fmt.Sprintf("bench: collectiveOp: %v is not in the suite", op))
}

// timerSuite: the WaitPatternUp and WaitPatternNull checks on every rank.
func timerSuite(c *mpi.Comm, k *Clock, tb float64, o Options, progress func(string)) []Row {
	n := c.Size()
	up := Measure(c, k, tb, o.Params, func() { spin(float64(c.Rank()+1) * 1e-6) })
	progress("WaitPatternUp")
	null := Measure(c, k, tb, o.Params, func() {})
	progress("WaitPatternNull")
	return []Row{
		{Kind: "timer", Label: "WaitPatternUp", Ranks: n, Expected: float64(n) * 1e-6, Stats: up},
		{Kind: "timer", Label: "WaitPatternNull", Ranks: n, Stats: null},
	}
}

// pingPongSuite: ping-pong between ranks 0 and 1 for every size.
func pingPongSuite(c *mpi.Comm, k *Clock, tb float64, o Options, progress func(string)) []Row {
	var rows []Row
	for _, m := range o.Sizes {
		rounds := pingPongRounds(m)
		st := Measure(c, k, tb, o.Params, pingPong(c, 0, 1, m, rounds))
		rows = append(rows, Row{Kind: "pingpong", Label: "PingPong", Bytes: m, Ranks: 2, Rounds: rounds, Stats: st.per(rounds)})
		progress("PingPong")
	}
	return rows
}

// collectiveSuite: the collectives on every rank.
func collectiveSuite(c *mpi.Comm, k *Clock, tb float64, o Options, progress func(string)) []Row {
	var rows []Row
	for _, cl := range collectives {
		st := Measure(c, k, tb, o.Params, collectiveOp(c, cl.op, cl.bytes))
		rows = append(rows, Row{Kind: "collective", Label: cl.op.String(), Bytes: cl.bytes, Ranks: c.Size(), Stats: st})
		progress(cl.op.String())
	}
	return rows
}

// contentionSuite: cf pairs ping-pong at once, cf = 1..size/2.
func contentionSuite(c *mpi.Comm, k *Clock, tb float64, o Options, progress func(string)) []Row {
	var rows []Row
	for _, m := range o.ContentionSizes {
		var base float64
		for cf := 1; cf <= c.Size()/2; cf++ {
			op := func() {}
			if i := c.Rank() / 2; i < cf {
				op = pingPong(c, 2*i, 2*i+1, m, 1)
			}
			st := Measure(c, k, tb, o.Params, op)
			if cf == 1 {
				base = st.Mean
			}
			r := Row{Kind: "contention", Label: "PingPong", Bytes: m, Ranks: 2 * cf, CF: cf, Stats: st}
			if base > 0 {
				r.Ratio = st.Mean / base
			}
			rows = append(rows, r)
			progress(fmt.Sprintf("contention cf=%d", cf))
		}
	}
	return rows
}

// computeSuite: a memory-bound kernel on ppn = 1..size ranks at once.
func computeSuite(c *mpi.Comm, k *Clock, tb float64, o Options, progress func(string)) []Row {
	var rows []Row
	data := make([]float64, 1<<19) // 4 MiB per rank
	sink := 0.0
	kernel := func() {
		s := 0.0
		for _, x := range data {
			s += x
		}
		sink += s
	}
	var base float64
	for ppn := 1; ppn <= c.Size(); ppn++ {
		op := func() {}
		if c.Rank() < ppn {
			op = kernel
		}
		st := Measure(c, k, tb, o.Params, op)
		if ppn == 1 {
			base = st.Mean
		}
		r := Row{Kind: "compute", Label: "SumKernel", Bytes: len(data) * 8, Ranks: ppn, Stats: st}
		if base > 0 {
			r.Ratio = st.Mean / base
		}
		rows = append(rows, r)
		progress(fmt.Sprintf("compute ppn=%d", ppn))
	}
	_ = sink
	return rows
}
