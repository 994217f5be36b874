package probe

// Span times one entry of a loop in the timing binary. Its state lives in
// the instrumented function's stack frame, not in registers: a loop timer
// kept in locals (start time, trip count) adds values that stay live
// across the loop, and the register allocator then spills the loop's own
// variables. On a tight nest (matmul's k loop, transpose's strided copy)
// that changed its speed by 15-35 %, either way, which no calibrated probe
// cost can subtract. The methods are kept out of line so that the
// compiler cannot take the fields back into registers.
type Span struct {
	t0, n int64
}

// Begin starts an entry of loop k that will run n iterations (n < 0: the
// loop counts them itself and ends with EndN).
//
//go:noinline
func (s *Span) Begin(k int, n int64) {
	s.n = n
	s.t0 = Start(k)
}

// End records the entry begun by Begin, with Begin's trip count.
//
//go:noinline
func (s *Span) End(k int) { Loop(k, max(s.n, 0), s.t0) }

// EndN records the entry begun by Begin, which ran n iterations.
//
//go:noinline
func (s *Span) EndN(k int, n int64) { Loop(k, n, s.t0) }
