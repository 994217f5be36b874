package profiler

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestProgramWithoutRanks: a program that never calls mpi.Main or mpi.Run
// is refused before anything is built, at main's position; one that
// returns before starting its ranks with the given arguments is refused
// after its counting run, naming the arguments. Both used to fail on a
// missing trace file.
func TestProgramWithoutRanks(t *testing.T) {
	_, err := Run(context.Background(), Options{Dir: tempModule(t, "noranks"), Package: "."})
	if !errors.Is(err, ErrNoRanks) || !strings.Contains(err.Error(), "main.go:7:1: main never calls mpi.Main or mpi.Run") {
		t.Errorf("serial program: %v", err)
	}
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	dir := tempModule(t, "dryrun")
	_, err = Run(context.Background(), Options{Dir: dir, Package: ".", Args: []string{"-dry"}})
	if !errors.Is(err, ErrNoRanks) || !strings.Contains(err.Error(), `with the arguments ["-dry"] it returned before mpi.Main or mpi.Run`) {
		t.Errorf("early return: %v", err)
	}
	if _, err := Run(context.Background(), Options{Dir: dir, Package: "."}); err != nil {
		t.Errorf("without -dry: %v", err)
	}
}
