// Command wordfreq counts word frequencies in a text of pseudo-random
// lines and prints the most frequent words. Every rank makes its own
// block of the lines from the seed (line i is the same whichever rank
// makes it), counts its words in a map (strings.Fields, strings.ToLower,
// punctuation trimmed), and sends the map to rank 0 serialised as the
// words joined by newlines ([]byte) and their counts ([]int), with Gather
// of the sizes and Gatherv of the data. Rank 0 merges the maps and sorts
// the top -k with sort.Slice. The whole count is repeated -reps times.
// With -check rank 0 counts all lines itself and compares.
//
//	go run . -np 4 -check
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	lines, vocab, k, reps int
	seed                  uint64
	check                 bool
}

func main() {
	var p params
	flag.IntVar(&p.lines, "lines", 20000, "lines of text")
	flag.IntVar(&p.vocab, "vocab", 20000, "distinct words")
	flag.IntVar(&p.k, "k", 10, "most frequent words to print")
	flag.IntVar(&p.reps, "reps", 10, "times to count")
	flag.Uint64Var(&p.seed, "seed", 1, "random seed of the text")
	flag.BoolVar(&p.check, "check", false, "compare with a serial count on rank 0")
	flag.Parse()
	if p.lines < 1 || p.vocab < 1 || p.k < 1 || p.reps < 1 {
		fmt.Fprintln(os.Stderr, "wordfreq: -lines, -vocab, -k and -reps must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// vocabulary makes the distinct words, the same on every rank.
func vocabulary(p params) []string {
	r := rand.New(rand.NewPCG(p.seed, 0))
	seen := make(map[string]bool, p.vocab)
	words := make([]string, 0, p.vocab)
	var b strings.Builder
	for len(words) < p.vocab {
		b.Reset()
		for range 2 + r.IntN(9) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// line makes line i of the text: 4 to 16 words drawn by Zipf's law, some
// capitalised, some followed by punctuation.
func line(p params, words []string, i int) string {
	r := rand.New(rand.NewPCG(p.seed, uint64(i)+1))
	z := rand.NewZipf(r, 1.2, 2, uint64(len(words)-1))
	var b strings.Builder
	for w := range 4 + r.IntN(13) {
		if w > 0 {
			b.WriteByte(' ')
		}
		word := words[z.Uint64()]
		if r.IntN(5) == 0 {
			word = strings.ToUpper(word[:1]) + word[1:]
		}
		b.WriteString(word)
		if r.IntN(8) == 0 {
			b.WriteByte(".,;!?"[r.IntN(5)])
		}
	}
	return b.String()
}

// count adds the words of lines to counts.
func count(lines []string, counts map[string]int) {
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			counts[strings.ToLower(strings.Trim(w, ".,;!?"))]++
		}
	}
}

// encode serialises counts as words joined by '\n' and their counts.
func encode(counts map[string]int, text []byte, freq []int) ([]byte, []int) {
	text, freq = text[:0], freq[:0]
	for w, n := range counts {
		text = append(text, w...)
		text = append(text, '\n')
		freq = append(freq, n)
	}
	return text, freq
}

// decode adds what encode made to counts.
func decode(text []byte, freq []int, counts map[string]int) {
	for i := 0; len(text) > 0; i++ {
		j := bytes.IndexByte(text, '\n')
		counts[string(text[:j])] += freq[i]
		text = text[j+1:]
	}
}

type entry struct {
	word string
	n    int
}

// top is the k most frequent words, ties by word.
func top(counts map[string]int, k int) []entry {
	all := make([]entry, 0, len(counts))
	for w, n := range counts {
		all = append(all, entry{w, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].word < all[j].word
	})
	return all[:min(k, len(all))]
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	words := vocabulary(p)
	lo, hi := rank*p.lines/size, (rank+1)*p.lines/size
	mine := make([]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		mine = append(mine, line(p, words, i))
	}
	var text []byte
	var freq []int
	sizes := make([]int, 2)
	var all, tcounts, fcounts, tdispl, fdispl []int
	var alltext []byte
	var allfreq []int
	if rank == 0 {
		all = make([]int, 2*size)
		tcounts, fcounts = make([]int, size), make([]int, size)
		tdispl, fdispl = make([]int, size), make([]int, size)
	}
	var best []entry
	var total map[string]int

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for range p.reps {
		counts := make(map[string]int)
		count(mine, counts)
		text, freq = encode(counts, text, freq)
		sizes[0], sizes[1] = len(text), len(freq)
		mpi.Gather(c, sizes, all, 0)
		if rank == 0 {
			nt, nf := 0, 0
			for r := range size {
				tcounts[r], fcounts[r] = all[2*r], all[2*r+1]
				tdispl[r], fdispl[r] = nt, nf
				nt += tcounts[r]
				nf += fcounts[r]
			}
			alltext = append(alltext[:0], make([]byte, nt)...)
			allfreq = append(allfreq[:0], make([]int, nf)...)
		}
		mpi.Gatherv(c, text, alltext, tcounts, tdispl, 0)
		mpi.Gatherv(c, freq, allfreq, fcounts, fdispl, 0)
		if rank == 0 {
			total = make(map[string]int, len(counts))
			for r := range size {
				decode(alltext[tdispl[r]:tdispl[r]+tcounts[r]], allfreq[fdispl[r]:fdispl[r]+fcounts[r]], total)
			}
			best = top(total, p.k)
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("wordfreq: %d lines, %d distinct words, %d reps on %d ranks in %.3f s; top %d:", p.lines, len(total), p.reps, size, elapsed, len(best))
	for _, e := range best {
		fmt.Printf(" %s:%d", e.word, e.n)
	}
	fmt.Println()
	if !p.check {
		return
	}
	text0 := make([]string, p.lines)
	for i := range text0 {
		text0[i] = line(p, words, i)
	}
	want := make(map[string]int)
	count(text0, want)
	bad := len(want) != len(total)
	for w, n := range want {
		if total[w] != n {
			bad = true
		}
	}
	for i, e := range top(want, p.k) {
		if best[i] != e {
			bad = true
		}
	}
	if bad {
		fmt.Fprintf(os.Stderr, "wordfreq: check failed: %d distinct words (serial %d)\n", len(total), len(want))
		c.Abort(1)
	}
	fmt.Println("wordfreq: check passed")
}
