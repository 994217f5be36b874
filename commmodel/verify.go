package commmodel

import (
	"fmt"
	"math/bits"
	"slices"
)

// Verify executes a schedule symbolically and checks that it is the
// collective it claims to be: every message is matched, no rank sends a
// block it does not hold, reductions never combine a contribution twice,
// and at the end every rank holds the blocks the operation promises it
// (with every rank's contribution, for reductions). It supports P <= 64.
func Verify(s *Schedule) error {
	p := s.P
	if p > 64 {
		return fmt.Errorf("commmodel: Verify: %d ranks, at most 64 supported", p)
	}
	full := uint64(1)<<p - 1
	if p == 64 {
		full = ^uint64(0)
	}
	nb := len(s.Blocks)
	state := make([]map[int]uint64, p)
	for r := range state {
		state[r] = map[int]uint64{}
	}
	own := uint64(1)
	switch s.Op {
	case Barrier, Gather, Allgather:
		for r := range p {
			state[r][r] = own << r
		}
	case Bcast, Scatter:
		for blk := range nb {
			state[s.Root][blk] = own << s.Root
		}
	case Reduce, Allreduce:
		for r := range p {
			for blk := range nb {
				state[r][blk] = own << r
			}
		}
	case Alltoall:
		for r := range p {
			for d := range p {
				state[r][r*p+d] = own << r
			}
		}
	}
	type msg struct {
		blocks []int
		masks  []uint64
	}
	queue := map[[2]int][]msg{}
	pc := make([]int, p)
	posted := make([]bool, p)
	for progress := true; progress; {
		progress = false
		for r := range p {
			if pc[r] == len(s.Ranks[r]) {
				continue
			}
			st := s.Ranks[r][pc[r]]
			if !posted[r] {
				for _, t := range st.Sends {
					if err := s.checkTransfer(r, t); err != nil {
						return err
					}
					m := msg{blocks: t.Blocks}
					for _, blk := range t.Blocks {
						mask, ok := state[r][blk]
						if !ok {
							return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d step %d sends block %d it does not hold", s.Op, s.Algorithm, p, r, pc[r], blk)
						}
						m.masks = append(m.masks, mask)
					}
					k := [2]int{r, t.Peer}
					queue[k] = append(queue[k], m)
				}
				posted[r] = true
				progress = true
			}
			need := map[int]int{}
			for _, t := range st.Recvs {
				need[t.Peer]++
			}
			ready := true
			for peer, n := range need {
				ready = ready && len(queue[[2]int{peer, r}]) >= n
			}
			if !ready {
				continue
			}
			for _, t := range st.Recvs {
				if err := s.checkTransfer(r, t); err != nil {
					return err
				}
				k := [2]int{t.Peer, r}
				m := queue[k][0]
				queue[k] = queue[k][1:]
				if !slices.Equal(m.blocks, t.Blocks) {
					return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d step %d expects blocks %v from %d, got %v", s.Op, s.Algorithm, p, r, pc[r], t.Blocks, t.Peer, m.blocks)
				}
				for i, blk := range m.blocks {
					old, ok := state[r][blk]
					if st.Combine && ok {
						if old&m.masks[i] != 0 {
							return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d step %d combines contributions %b twice into block %d", s.Op, s.Algorithm, p, r, pc[r], old&m.masks[i], blk)
						}
						state[r][blk] = old | m.masks[i]
					} else {
						state[r][blk] = m.masks[i]
					}
				}
			}
			pc[r]++
			posted[r] = false
			progress = true
		}
	}
	for r := range p {
		if pc[r] != len(s.Ranks[r]) {
			return fmt.Errorf("commmodel: Verify %v/%v P=%d: deadlock: rank %d stuck at step %d of %d", s.Op, s.Algorithm, p, r, pc[r], len(s.Ranks[r]))
		}
	}
	for k, q := range queue {
		if len(q) > 0 {
			return fmt.Errorf("commmodel: Verify %v/%v P=%d: %d unreceived messages from %d to %d", s.Op, s.Algorithm, p, len(q), k[0], k[1])
		}
	}
	want := func(r, blk int, mask uint64) error {
		got, ok := state[r][blk]
		if !ok {
			return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d ends without block %d", s.Op, s.Algorithm, p, r, blk)
		}
		if mask != 0 && got != mask {
			return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d block %d has %d of %d contributions", s.Op, s.Algorithm, p, r, blk, bits.OnesCount64(got), p)
		}
		return nil
	}
	for r := range p {
		var err error
		switch s.Op {
		case Barrier, Allgather:
			for blk := range p {
				err = firstErr(err, want(r, blk, 0))
			}
		case Bcast:
			for blk := range nb {
				err = firstErr(err, want(r, blk, 0))
			}
		case Allreduce:
			for blk := range nb {
				err = firstErr(err, want(r, blk, full))
			}
		case Reduce:
			for blk := 0; blk < nb && r == s.Root; blk++ {
				err = firstErr(err, want(r, blk, full))
			}
		case Gather:
			for blk := 0; blk < p && r == s.Root; blk++ {
				err = firstErr(err, want(r, blk, 0))
			}
		case Scatter:
			err = want(r, r, 0)
		case Alltoall:
			for src := range p {
				err = firstErr(err, want(r, src*p+r, uint64(1)<<src))
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func (s *Schedule) checkTransfer(r int, t Transfer) error {
	if t.Peer < 0 || t.Peer >= s.P || t.Peer == r {
		return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d has a transfer with peer %d", s.Op, s.Algorithm, s.P, r, t.Peer)
	}
	n := 0
	for _, blk := range t.Blocks {
		if blk < 0 || blk >= len(s.Blocks) {
			return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d: block %d out of range", s.Op, s.Algorithm, s.P, r, blk)
		}
		n += s.Blocks[blk]
	}
	if n != t.Bytes {
		return fmt.Errorf("commmodel: Verify %v/%v P=%d: rank %d: transfer of %d bytes says %d", s.Op, s.Algorithm, s.P, r, n, t.Bytes)
	}
	return nil
}
