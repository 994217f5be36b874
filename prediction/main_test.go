package prediction

import (
	"context"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/internal/timinglock"
	"github.com/parpredict/parpredict/model"
)

// TestMain keeps this package's tests, which profile programs and check
// what the times say, from running beside another package's.
func TestMain(m *testing.M) { timinglock.Main(m) }

// prepareOnIBQDR profiles and models a program for a test, with the
// ib-qdr preset to predict on.
func prepareOnIBQDR(t *testing.T, opts SpeedupOptions) (*model.Program, *Oracle, *commmodel.Machine) {
	t.Helper()
	mp, oracle, err := prepare(context.Background(), opts, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	return mp, oracle, m
}
