package prediction

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/semaphore"
)

// ranksInFlight bounds the ranks of the configurations simulated at once
// when the largest has fewer: a simulation's memory grows with its ranks,
// by about 10 KB each for the examples (heat at P = 1024 takes 10 MB more
// than at P = 1), next to the 180-200 MB of the program's model.
const ranksInFlight = 4096

// forEachConfig runs do(i) for i in [0, n) on up to jobs goroutines (0:
// one per processor Go may use). Configurations start in index order,
// and those running at once have at most max(ranksInFlight, the
// largest's) ranks in all (ranks[i] is configuration i's), so that a
// sweep of large configurations needs about the memory of its largest
// simulation, as when they ran one after another. done(i) is called
// as each finishes, never two at once. The error returned is that of the
// first configuration in index order that failed, as a sequential sweep
// would have stopped on; configurations after a failure do not start. A
// sweep whose context is cancelled fails with the context's error.
func forEachConfig(ctx context.Context, n, jobs int, ranks func(i int) int, do func(i int) error, done func(i int)) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs == 1 || n < 2 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := do(i); err != nil {
				return err
			}
			done(i)
		}
		return ctx.Err()
	}
	capacity := int64(ranksInFlight)
	for i := range n {
		capacity = max(capacity, int64(ranks(i)))
	}
	slots := semaphore.NewWeighted(capacity)
	errs := make([]error, n)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex // serialises done and guards failed
		failed bool
	)
	running := make(chan struct{}, jobs)
	started := 0
	for i := range n {
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop {
			break
		}
		w := int64(max(1, ranks(i)))
		if err := slots.Acquire(ctx, w); err != nil {
			errs[i] = err
			break
		}
		running <- struct{}{}
		started++
		wg.Add(1)
		go func() {
			defer func() {
				<-running
				slots.Release(w)
				wg.Done()
			}()
			err := ctx.Err()
			if err == nil {
				err = do(i)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs[i], failed = err, true
				return
			}
			done(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
