package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestOpenJournalDBUnregistered: with no database package imported, opening a journal
// database fails with ErrNoJournalDB, whose text names the package to import.
func TestOpenJournalDBUnregistered(t *testing.T) {
	_, err := store.OpenJournalDB(context.Background(), t.TempDir()+"/j.db")
	if !errors.Is(err, store.ErrNoJournalDB) {
		t.Fatalf("OpenJournalDB with nothing registered: %v, want ErrNoJournalDB", err)
	}
}
