package llmfs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// rewriteStore is a mem store whose journal's change sets rewrite the file named target
// just before they remove it: another writer getting in between an undo's check and its
// removal, every time.
type rewriteStore struct {
	*mem.Store
	target string
}

func (s *rewriteStore) Journal() store.Journal { return rewriteJournal{s.Store.Journal(), s} }

type rewriteJournal struct {
	store.Journal
	s *rewriteStore
}

func (j rewriteJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	return j.Journal.Apply(ctx, actor, func(tx store.JournalTx) error { return fn(&rewriteTx{tx, j.s}) })
}

type rewriteTx struct {
	store.JournalTx
	s *rewriteStore
}

func (t *rewriteTx) rewrite(ctx context.Context, name string) {
	if name == t.s.target {
		t.s.target = ""
		t.JournalTx.WriteFile(ctx, name, strings.NewReader("rewritten\n"), store.WriteOptions{})
	}
}

func (t *rewriteTx) Remove(ctx context.Context, name string) error {
	t.rewrite(ctx, name)
	return t.JournalTx.Remove(ctx, name)
}

func (t *rewriteTx) RemoveIf(ctx context.Context, name, hash string) error {
	t.rewrite(ctx, name)
	return store.RemoveIf(ctx, t.JournalTx, name, hash)
}

// TestUndoCreateIsCompareAndSwap: issue 14.4, the undo of a create removes the file only
// if it still holds what the create left, in one step with the removal: a file rewritten
// between the undo's check and its removal was lost.
func TestUndoCreateIsCompareAndSwap(t *testing.T) {
	s := &rewriteStore{Store: mem.New()}
	w := llmfs.New(s, nil)
	if _, err := w.Write(bg, "new.txt", "created\n", llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
		t.Fatal(err)
	}
	c := history(t, w, llmfs.HistoryFilter{Limit: 1})[0]
	s.target = "new.txt"
	_, err := w.History().Undo(bg, c.ID)
	var e *llmfs.Error
	if !errors.As(err, &e) || e.Code != llmfs.CodeFileChanged {
		t.Fatalf("Undo of the create over a rewritten file = %v, want FILE_CHANGED", err)
	}
	if got := mustRaw(t, w, "new.txt"); got != "rewritten\n" {
		t.Fatalf("the rewrite was lost: new.txt = %q", got)
	}
}

// TestPatchDeleteIsCompareAndSwap: issue 17.3, a patch deletes a file only if it still
// holds what the patch read, in one step with the removal.
func TestPatchDeleteIsCompareAndSwap(t *testing.T) {
	s := &rewriteStore{Store: mem.New()}
	w := llmfs.New(s, nil)
	put(t, w, "old.txt", "old\n")
	s.target = "old.txt"
	_, err := w.Patch(bg, "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n", llmfs.PatchOptions{})
	if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
		t.Fatalf("Patch deleting a file rewritten meanwhile = %v, want FILE_CHANGED", err)
	}
	if got := mustRaw(t, w, "old.txt"); got != "rewritten\n" {
		t.Fatalf("the rewrite was lost: old.txt = %q", got)
	}
}
