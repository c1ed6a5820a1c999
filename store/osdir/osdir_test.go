package osdir_test

import (
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: newStore(false), Symlinks: true})
}

func TestConformanceRelaxed(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: newStore(true), Symlinks: true, Unconfined: true})
}

func newStore(relaxed bool) func(t *testing.T) store.Store {
	return func(t *testing.T) store.Store {
		s, err := osdir.New(t.TempDir(), relaxed)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}
