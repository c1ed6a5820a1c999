//go:build !js && !wasip1

package overlay_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// journalOf returns the base's journal entries, oldest first, as "actor op path" lines.
func journalOf(t *testing.T, s store.Store) []store.Change {
	t.Helper()
	cs, err := s.(store.Journaler).Journal().Changes(ctx, store.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(cs)
	return cs
}

func entries(cs []store.Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Actor+" "+c.Op+" "+c.Path)
	}
	return strings.Join(out, "\n")
}

// TestReviewApplyJournaled: issue 15.4, "applying and discarding are journaled (actor
// review)". Apply records every change it makes to a host base in the base's journal, one
// change set by "review"; undoing that set puts the host back; discard records one entry
// per discarded change, with the file left as it was.
func TestReviewApplyJournaled(t *testing.T) {
	files := map[string]string{"a": "A\n", "b": "B\n", "d/x": "X\n", "keep": "K\n"}
	dir, o, _ := hostOverlay(t, files)
	write(t, o, "a", "agent\n")
	if err := o.Mkdir(ctx, "new"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "new/n", "N\n")
	if err := o.Remove(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "d", "e"); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	cs := journalOf(t, o.Base())
	want := "review apply e\nreview apply new\nreview apply a\nreview apply b\nreview apply e/x\nreview apply d/x\nreview apply new/n\nreview apply d"
	if got := entries(cs); got != want {
		t.Errorf("journal after apply:\n%s\nwant\n%s", got, want)
	}
	for _, c := range cs {
		if c.Set != cs[0].Set || c.State != store.Committed {
			t.Errorf("change %d: set %d state %s, want set %d committed", c.ID, c.Set, c.State, cs[0].Set)
		}
		if c.Path == "e/x" && c.Other != "d/x" {
			t.Errorf("e/x recorded from %q, want d/x", c.Other)
		}
	}

	// The apply is undone like any change set, through a workspace on the same directory.
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.History().UndoSet(ctx, cs[0].ID); err != nil {
		t.Fatalf("undoing the apply: %v", err)
	}
	for name, c := range files {
		if got := hostFile(t, dir, name); got != c {
			t.Errorf("host %s = %q after undo, want %q", name, got, c)
		}
	}
	for _, gone := range []string{"new/n", "e/x"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still on the host after undo", gone)
		}
	}

	// A discard: one entry per change, the file as it is.
	write(t, o, "keep", "agent\n")
	if _, err := o.Discard(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	cs = journalOf(t, o.Base())
	last := cs[len(cs)-1]
	if last.Actor != "review" || last.Op != overlay.OpDiscard || last.Path != "keep" || !last.Before.Equal(last.After) || last.Before.Hash != store.Hash([]byte("K\n")) {
		t.Errorf("discard recorded as %+v", last)
	}
	if _, err := ws.History().UndoSet(ctx, last.ID); err != nil {
		t.Errorf("undoing a discard (nothing to do): %v", err)
	}
	if hostFile(t, dir, "keep") != "K\n" {
		t.Errorf("host keep = %q", hostFile(t, dir, "keep"))
	}
}

// TestReviewApplyJournaledSQL: over a SQL base, the apply is one transaction with its
// journal entries, under the actor SetActor names; a conflict is refused there too and
// recorded nowhere.
func TestReviewApplyJournaledSQL(t *testing.T) {
	base, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(t.TempDir(), "base.db"), "ws", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	write(t, base, "a", "A\n")
	write(t, base, "b", "B\n")
	o := newOverlay(t, base, mem.New())
	o.SetActor("review:alice")
	write(t, o, "a", "agent\n")
	write(t, o, "b", "agent\n")
	write(t, o, "c", "C\n")
	write(t, base, "b", "human\n") // behind the agent
	n := len(journalOf(t, base))
	res, err := o.Apply(ctx, nil, nil)
	if !errors.Is(err, store.ErrChanged) || len(res) != 2 {
		t.Fatalf("Apply = %v, %v; want a and c applied, b FILE_CHANGED", res, err)
	}
	cs := journalOf(t, base)[n:]
	if got := entries(cs); got != "review:alice apply a\nreview:alice apply c" {
		t.Errorf("journal:\n%s", got)
	}
	if c, _ := read(t, base, "b"); c != "human\n" {
		t.Errorf("base b = %q", c)
	}
}
