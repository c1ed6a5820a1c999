//go:build js && wasm

// These tests run under Node with fake-indexeddb: see test.sh.
package idb_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/idb"
	"github.com/llmfs/llmfs/store/storetest"
)

var ctx = context.Background()

var dbCount int

// open returns a store on a fresh database, deleted when the test ends.
func open(t *testing.T) *idb.Store {
	t.Helper()
	dbCount++
	name := fmt.Sprintf("llmfs-test-%d", dbCount)
	s, err := idb.Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if err := idb.DeleteDatabase(ctx, name); err != nil {
			t.Error(err)
		}
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store { return open(t) }})
}

func TestJournal(t *testing.T) {
	storetest.RunJournal(t, func(t *testing.T) store.Journaler { return open(t) })
}
