package llmfs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/sysfiles"
)

// journalBackends runs fn on every backend, with the journals of host directories kept in
// a directory of the test's own.
func journalBackends(t *testing.T, fn func(t *testing.T, w *llmfs.Workspace)) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	eachBackend(t, &llmfs.Options{Actor: "tester"}, func(t *testing.T, w *llmfs.Workspace) {
		if !w.Settings().Journaled {
			t.Skip("store keeps no journal")
		}
		fn(t, w)
	})
}

func ops(w *llmfs.Workspace, cs []llmfs.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Op+" "+w.Paths().Rel(c.Path))
	}
	return strings.Join(out, ", ")
}

func history(t *testing.T, w *llmfs.Workspace, f llmfs.HistoryFilter) []llmfs.Change {
	t.Helper()
	cs, err := w.History().List(bg, f)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	return cs
}

// TestJournalRecordsEveryChange: issue 14.1, every change through a Workspace is recorded,
// with its actor, and reads are not.
func TestJournalRecordsEveryChange(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		rel := func(cs []llmfs.Change) string { return ops(w, cs) }
		put(t, w, "a.txt", "one\n")
		if _, err := w.Write(bg, "a.txt", "two\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(bg, "d/new.txt", "n\n", llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Edit(bg, "a.txt", "two", "TWO", false); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Copy(bg, "a.txt", "b.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Move(bg, "b.txt", "c.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Delete(bg, "c.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Mkdir(bg, "e"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Read(bg, "a.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(bg, "a.txt", "x", llmfs.WriteOptions{Mode: llmfs.Create}); err == nil {
			t.Fatal("create over an existing file succeeded")
		}
		cs := history(t, w, llmfs.HistoryFilter{})
		want := "mkdir e, delete c.txt, move c.txt, move b.txt, copy b.txt, edit a.txt, create d/new.txt, mkdir d, append a.txt, write a.txt"
		if got := rel(cs); got != want {
			t.Errorf("history:\n got %s\nwant %s", got, want)
		}
		for _, c := range cs {
			if c.Actor != "tester" || c.State != store.Committed {
				t.Errorf("change %d: actor %q state %q, want tester, committed", c.ID, c.Actor, c.State)
			}
		}
		// The parent a create made is in the create's change set.
		if cs[6].Set != cs[7].Set {
			t.Errorf("create and its mkdir in sets %d and %d, want one", cs[6].Set, cs[7].Set)
		}
		if got := rel(history(t, w, llmfs.HistoryFilter{Path: "d"})); got != "create d/new.txt, mkdir d" {
			t.Errorf("history of d = %s", got)
		}
		if got := len(history(t, w, llmfs.HistoryFilter{Limit: 3})); got != 3 {
			t.Errorf("history with limit 3: %d changes", got)
		}
		other := w.With(llmfs.Actor("web"))
		put(t, other, "w.txt", "web\n")
		if got := rel(history(t, w, llmfs.HistoryFilter{Actor: "web"})); got != "write w.txt" {
			t.Errorf("history of web = %s", got)
		}
		d, err := w.History().Diff(bg, cs[5:6])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(d, "--- a/a.txt\n+++ b/a.txt\n") || !strings.Contains(d, "-two\n+TWO\n") {
			t.Errorf("diff of the edit:\n%s", d)
		}
		if a, r := w.History().Lines(bg, cs[5]); a != 1 || r != 1 {
			t.Errorf("Lines(edit) = +%d -%d, want +1 -1", a, r)
		}
	})
}

// TestUndoIsCompareAndSwap: issue 14.4, undo restores the before state only while the file
// still holds the after content; otherwise FILE_CHANGED with a diff, and nothing touched.
func TestUndoIsCompareAndSwap(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "v1\n")
		put(t, w, "f.txt", "v2\n")
		last := history(t, w, llmfs.HistoryFilter{Limit: 1})[0]
		if _, err := w.History().Undo(bg, last.ID); err != nil {
			t.Fatalf("Undo: %v", err)
		}
		if got := mustRaw(t, w, "f.txt"); got != "v1\n" {
			t.Fatalf("after undo f.txt = %q, want v1", got)
		}
		// The undo is journaled: undoing it is a redo.
		undo := history(t, w, llmfs.HistoryFilter{Limit: 1})[0]
		if undo.Op != llmfs.ChangeUndo {
			t.Fatalf("newest change is %s, want undo", undo.Op)
		}
		if _, err := w.History().Undo(bg, undo.ID); err != nil {
			t.Fatalf("redo: %v", err)
		}
		if got := mustRaw(t, w, "f.txt"); got != "v2\n" {
			t.Fatalf("after redo f.txt = %q, want v2", got)
		}
		// A change made behind the journal's back (straight to the store) blocks the undo.
		if _, err := w.Store().WriteFile(bg, storeName("f.txt"), strings.NewReader("outside\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := w.History().Undo(bg, last.ID)
		var e *llmfs.Error
		if !errors.As(err, &e) || e.Code != llmfs.CodeFileChanged || !strings.Contains(e.Msg, "+outside") {
			t.Fatalf("Undo after an outside change = %v, want FILE_CHANGED with a diff", err)
		}
		if got := mustRaw(t, w, "f.txt"); got != "outside\n" {
			t.Errorf("refused undo touched f.txt: %q", got)
		}
	})
}

// TestUndoEveryOp: issue 14.4, undo of delete, move, copy and mkdir too.
func TestUndoEveryOp(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "keep.txt", "k\n")
		newest := func() llmfs.Change { return history(t, w, llmfs.HistoryFilter{Limit: 1})[0] }
		type test struct {
			name  string
			do    func() error
			check func() string
		}
		for _, tc := range []test{
			{"delete", func() error { _, err := w.Delete(bg, "keep.txt"); return err },
				func() string { return fmt.Sprint(mustRaw(t, w, "keep.txt")) }},
			{"move", func() error { _, err := w.Move(bg, "keep.txt", "sub/moved.txt"); return err },
				func() string {
					return fmt.Sprint(mustRaw(t, w, "keep.txt"), exists(w, "sub/moved.txt"), exists(w, "sub"))
				}},
			{"copy", func() error { _, err := w.Copy(bg, "keep.txt", "copy.txt"); return err },
				func() string { return fmt.Sprint(mustRaw(t, w, "keep.txt"), exists(w, "copy.txt")) }},
			{"mkdir", func() error { _, err := w.Mkdir(bg, "x/y"); return err },
				func() string { return fmt.Sprint(mustRaw(t, w, "keep.txt"), exists(w, "x")) }},
		} {
			if err := tc.do(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if _, err := w.History().UndoSet(bg, newest().ID); err != nil {
				t.Fatalf("undo %s: %v", tc.name, err)
			}
			want := "k\n"
			switch tc.name {
			case "move":
				want = "k\nfalse false"
			case "copy", "mkdir":
				want = "k\nfalse"
			}
			if got := tc.check(); got != want {
				t.Errorf("after undo of %s: %q, want %q", tc.name, got, want)
			}
		}
	})
}

// TestRestoreCheckpoint: issue 14.4, restore undoes everything since a checkpoint, and
// refuses, touching nothing, when a file changed outside the journal.
func TestRestoreCheckpoint(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "a1\n")
		if _, err := w.History().Checkpoint(bg, "start"); err != nil {
			t.Fatal(err)
		}
		put(t, w, "a.txt", "a2\n")
		put(t, w, "n/b.txt", "b\n")
		if _, err := w.Delete(bg, "a.txt"); err != nil {
			t.Fatal(err)
		}
		d, err := w.History().DiffSince(bg, "start")
		if err != nil || !strings.Contains(d, "-a1\n") || !strings.Contains(d, "+b\n") {
			t.Errorf("DiffSince(start) = %q, %v", d, err)
		}
		if _, err := w.History().Checkpoint(bg, "12"); err == nil {
			t.Error("a numeric checkpoint name was accepted")
		}
		// An outside change blocks the restore.
		if _, err := w.Store().WriteFile(bg, storeName("n/b.txt"), strings.NewReader("outside\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.History().Restore(bg, "start"); !errors.Is(err, &llmfs.Error{Code: llmfs.CodeFileChanged}) {
			t.Fatalf("Restore after an outside change = %v, want FILE_CHANGED", err)
		}
		if exists(w, "a.txt") || mustRaw(t, w, "n/b.txt") != "outside\n" {
			t.Fatal("a refused restore touched files")
		}
		if _, err := w.Store().WriteFile(bg, storeName("n/b.txt"), strings.NewReader("b\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.History().Restore(bg, "start"); err != nil {
			t.Fatalf("Restore: %v", err)
		}
		if got := mustRaw(t, w, "a.txt"); got != "a1\n" || exists(w, "n") {
			t.Errorf("after restore a.txt = %q, n exists %v", got, exists(w, "n"))
		}
		if _, err := w.History().Restore(bg, "nope"); !errors.Is(err, &llmfs.Error{Code: llmfs.CodeInvalidArgument}) {
			t.Errorf("Restore(nope) = %v, want INVALID_ARGUMENT", err)
		}
	})
}

// TestJournalSystemActor: issue 14.1, what the system itself writes (AGENT.md) is on record
// as actor system, operation generate (issue 33 item 9: it read "system system AGENT.md").
func TestJournalSystemActor(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		if _, err := sysfiles.Ensure(bg, w, nil); err != nil {
			t.Fatal(err)
		}
		cs := history(t, w, llmfs.HistoryFilter{})
		if len(cs) == 0 || cs[0].Actor != llmfs.ActorSystem || cs[0].Op != llmfs.ChangeGenerate || w.Paths().Rel(cs[0].Path) != "AGENT.md" {
			t.Fatalf("history after Ensure = %+v, want AGENT.md by system", cs)
		}
	})
}

// TestJournalRetention: issue 14.5, pruning forgets the oldest changes, and history never
// counts against the quota.
func TestJournalRetention(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	eachBackend(t, &llmfs.Options{Quota: llmfs.Quota{MaxBytes: 100}, Retention: store.Retention{MaxBytes: 250, MaxAge: -1}},
		func(t *testing.T, w *llmfs.Workspace) {
			if !w.Settings().Journaled {
				t.Skip("no journal")
			}
			for i := range 10 {
				put(t, w, "f.txt", fmt.Sprintf("%02d %s", i, strings.Repeat("x", 77)))
			}
			n, err := w.History().Prune(bg)
			if err != nil {
				t.Fatal(err)
			}
			left := history(t, w, llmfs.HistoryFilter{})
			if n == 0 || len(left) == 0 || len(left) > 3 {
				t.Errorf("Prune forgot %d, left %d changes; want only the newest few kept", n, len(left))
			}
			if _, err := w.History().Undo(bg, left[0].ID); err != nil {
				t.Errorf("undo of a kept change: %v", err)
			}
		})
}

// TestPatchJournaled: issue 17.3, a patch is one journal change set. Workspace.Patch
// wrote its files straight to the store, so the journal never saw them, and an undo of an
// earlier change to a patched file was refused as if changed outside llmfs.
func TestPatchJournaled(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\n")
		put(t, w, "b.txt", "two\n")
		p := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** Add File: c.txt\n+three\n*** End Patch\n"
		if _, err := w.Patch(bg, p, llmfs.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		last := history(t, w, llmfs.HistoryFilter{Limit: 1})[0]
		set := history(t, w, llmfs.HistoryFilter{Set: last.Set})
		if got := ops(w, set); got != "patch c.txt, patch b.txt, patch a.txt" {
			t.Fatalf("patch's change set = %s", got)
		}
		if _, err := w.History().UndoSet(bg, last.ID); err != nil {
			t.Fatalf("UndoSet: %v", err)
		}
		if a, b := mustRaw(t, w, "a.txt"), mustRaw(t, w, "b.txt"); a != "one\n" || b != "two\n" {
			t.Errorf("after undo a.txt = %q, b.txt = %q", a, b)
		}
		if _, err := w.Read(bg, "c.txt", llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
			t.Errorf("after undo c.txt: %v, want FILE_NOT_FOUND", err)
		}
	})
}

// TestInsertJournaled: issue 14.1, Insert (the anthropic editor's insert) is journaled as
// an edit; it wrote straight to the store.
func TestInsertJournaled(t *testing.T) {
	journalBackends(t, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\n")
		if _, err := w.Insert(bg, "a.txt", 0, "zero"); err != nil {
			t.Fatal(err)
		}
		last := history(t, w, llmfs.HistoryFilter{Limit: 1})[0]
		if last.Op != llmfs.ChangeEdit || w.Paths().Rel(last.Path) != "a.txt" {
			t.Fatalf("newest change = %s %s, want edit a.txt", last.Op, w.Paths().Rel(last.Path))
		}
		if _, err := w.History().Undo(bg, last.ID); err != nil {
			t.Fatal(err)
		}
		if got := mustRaw(t, w, "a.txt"); got != "one\n" {
			t.Errorf("after undo a.txt = %q", got)
		}
	})
}
