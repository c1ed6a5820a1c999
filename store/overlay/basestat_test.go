//go:build !js && !wasip1

package overlay_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
)

// statCounter counts the Stat calls by name made through it.
type statCounter struct {
	store.Store
	stats atomic.Int64
}

func (c *statCounter) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.Store.Stat(ctx, name)
}

// dirStatCounter is a statCounter that keeps its store's directory handles.
type dirStatCounter struct{ *statCounter }

func (c dirStatCounter) OpenDir(ctx context.Context, name string) (store.DirHandle, error) {
	return c.Store.(store.DirOpener).OpenDir(ctx, name)
}

// TestPendingStatsBaseOnce: listing pending changes states each base file once, not twice
// (once whether it is large, once whether it holds the agent's version already: issue
// 40.4, two-thirds of the CPU of 'llmfs review' of 1,000 changes), and on a base that
// opens directories by handle, through the directory's handle rather than by name.
func TestPendingStatsBaseOnce(t *testing.T) {
	for _, handles := range []bool{false, true} {
		t.Run(fmt.Sprintf("handles=%v", handles), func(t *testing.T) {
			_, base := hostBaseT(t, 100)
			cbase := &statCounter{Store: base}
			var b store.Store = cbase
			if handles {
				b = dirStatCounter{cbase}
			}
			ov := newOverlay(t, b, sqliteUpper(t, filepath.Join(t.TempDir(), "u.db")))
			for i := range 100 {
				write(t, ov, fmt.Sprintf("d%d/f%d.txt", i%10, i), "changed\n")
			}
			if err := ov.Mkdir(ctx, "new"); err != nil {
				t.Fatal(err)
			}
			write(t, ov, "new/a.txt", "made\n")
			write(t, ov, "d0/f0.txt", "line one\nline two\nline three\n") // the base's own
			cbase.stats.Store(0)
			cs, err := ov.Pending(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 100 || cs[0].Path != "d0/f10.txt" || cs[0].Kind != overlay.Modified || cs[99].Path != "new/a.txt" || cs[99].Kind != overlay.Created {
				t.Fatalf("pending: %d changes, first %+v, last %+v", len(cs), cs[0], cs[len(cs)-1])
			}
			want := int64(101)
			if handles {
				want = 0
			}
			if n := cbase.stats.Load(); n > want {
				t.Errorf("the listing stated base files by name %d times for 101 pending files, want at most %d", n, want)
			}
		})
	}
}

// TestPendingBaseStatFollowsLinks: a base file that became a symbolic link to a large file
// since the agent changed it is still reviewed as large (the handle's stat does not follow
// the link; the base's Stat by name does), and one whose directory became a link too.
func TestPendingBaseStatFollowsLinks(t *testing.T) {
	dir, base := hostBaseT(t, 20)
	ov := newOverlay(t, base, sqliteUpper(t, filepath.Join(t.TempDir(), "u.db")))
	write(t, ov, "d1/f1.txt", "mine\n")
	write(t, ov, "d2/f2.txt", "mine too\n")
	big := strings.Repeat("large line\n", 17<<20/11+1) // over 16 MiB
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "d1", "f1.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../big.bin", filepath.Join(dir, "d1", "f1.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "d2"), filepath.Join(dir, "d2real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d2real", filepath.Join(dir, "d2")); err != nil {
		t.Fatal(err)
	}
	cs, err := ov.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Path != "d1/f1.txt" || !cs[0].Binary || cs[0].Kind != overlay.Modified {
		t.Fatalf("pending: %+v", cs)
	}
	if cs[1].Path != "d2/f2.txt" || cs[1].Kind != overlay.Modified || cs[1].Added != 1 || cs[1].Removed != 3 {
		t.Fatalf("pending through a linked directory: %+v", cs[1])
	}
}

// upperCounter counts the plain listings and the directories made in an upper store that
// lists content, keeping that.
type upperCounter struct {
	store.Store
	l               store.ContentLister
	readDirs, mkdir atomic.Int64
}

func (c *upperCounter) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	c.readDirs.Add(1)
	return c.Store.ReadDir(ctx, name)
}

func (c *upperCounter) Mkdir(ctx context.Context, name string) error {
	c.mkdir.Add(1)
	return c.Store.Mkdir(ctx, name)
}

func (c *upperCounter) ReadDirContent(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return c.l.ReadDirContent(ctx, name)
}

// TestOpenListsNoNames: opening an overlay over a layer of pending changes and listing them
// lists none of the upper store's names (the listing of pending changes brings what it
// needs; a tenth of 'llmfs review' of 1,000 changes was listing the names first, issue
// 40.4) and makes no directory; reads afterwards still find the upper files.
func TestOpenListsNoNames(t *testing.T) {
	_, base := hostBaseT(t, 100)
	file := filepath.Join(t.TempDir(), "u.db")
	sq := sqliteUpper(t, file)
	ov := newOverlay(t, base, sq)
	for i := range 100 {
		write(t, ov, fmt.Sprintf("d%d/f%d.txt", i%10, i), "changed\n")
	}
	up := &upperCounter{Store: sq, l: sq.(store.ContentLister)}
	ov2 := newOverlay(t, base, up)
	cs, err := ov2.Pending(ctx)
	if err != nil || len(cs) != 100 {
		t.Fatalf("pending: %d, %v", len(cs), err)
	}
	if n, m := up.readDirs.Load(), up.mkdir.Load(); n != 0 || m != 0 {
		t.Errorf("opening and listing the pending changes listed %d upper directories and made %d, want 0 and 0", n, m)
	}
	if got, err := read(t, ov2, "d3/f3.txt"); err != nil || got != "changed\n" {
		t.Errorf("d3/f3.txt through the overlay: %q, %v", got, err)
	}
	if got, err := read(t, ov2, "d3/f4.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("d3/f4.txt through the overlay: %q, %v", got, err)
	}
}

// removeCounter counts the removals made in an upper store that removes many files at once.
type removeCounter struct {
	store.Store
	removes, batches atomic.Int64
}

func (c *removeCounter) Remove(ctx context.Context, name string) error {
	c.removes.Add(1)
	return c.Store.Remove(ctx, name)
}

func (c *removeCounter) RemoveFiles(ctx context.Context, names []string) error {
	c.batches.Add(1)
	return c.Store.(interface {
		RemoveFiles(context.Context, []string) error
	}).RemoveFiles(ctx, names)
}

// TestApplyRemovesUpperFilesAtOnce: an apply removes the upper copies of the files it
// applied and their merge bases with one call each where the upper store can (issue 40.4:
// 2,000 removals of four statements each were a fifth of an apply of 1,000 files), and
// the layer is empty afterwards.
func TestApplyRemovesUpperFilesAtOnce(t *testing.T) {
	dir, base := hostBaseT(t, 50)
	up := &removeCounter{Store: sqliteUpper(t, filepath.Join(t.TempDir(), "u.db"))}
	ov := newOverlay(t, base, up)
	for i := range 50 {
		write(t, ov, fmt.Sprintf("d%d/f%d.txt", i%10, i), "changed\n")
	}
	done, err := ov.Apply(ctx, nil, nil)
	if err != nil || len(done) != 50 {
		t.Fatalf("applied %d: %v", len(done), err)
	}
	if n, b := up.removes.Load(), up.batches.Load(); n > 10 || b > 2 {
		t.Errorf("the apply removed %d upper files one by one and made %d batch removals, want at most 10 (directories) and 2", n, b)
	}
	if got := hostFile(t, dir, "d7/f7.txt"); got != "changed\n" {
		t.Errorf("d7/f7.txt = %q", got)
	}
	if cs, err := ov.Pending(ctx); err != nil || len(cs) != 0 {
		t.Errorf("pending after the apply: %v, %v", cs, err)
	}
	for _, d := range []string{"t/d7", "b"} {
		if es, err := up.Store.ReadDir(ctx, d); err == nil && len(es) > 0 {
			t.Errorf("%s of the upper store after the apply: %d entries", d, len(es))
		}
	}
}

// TestVersionFormat: a pending change's version is the hash it always was (a version shown
// by one llmfs and given to another's apply --expect must still match), now hashed as it
// streams.
func TestVersionFormat(t *testing.T) {
	_, base := hostBaseT(t, 10)
	ov := newOverlay(t, base, sqliteUpper(t, filepath.Join(t.TempDir(), "u.db")))
	write(t, ov, "d3/f3.txt", "changed\n")
	cs, err := ov.Pending(ctx)
	if err != nil || len(cs) != 1 {
		t.Fatalf("pending: %v, %v", cs, err)
	}
	old := "line one\nline two\nline three\n"
	want := store.Hash([]byte("modified\x00\x00" + store.Hash([]byte(old)) + "\x00" + store.Hash([]byte(old)) + "\x00changed\n"))[:16]
	if cs[0].Version != want {
		t.Errorf("version %s, want %s", cs[0].Version, want)
	}
}

// readCountBase is a host base whose journal's change sets count the files read through
// them: opens, and snapshots (each a read of the file).
type readCountBase struct {
	*osdir.Store
	reads *atomic.Int64
}

func (b readCountBase) Journal() store.Journal {
	return readCountJournal{b.Store.Journal(), b.reads}
}

type readCountJournal struct {
	store.Journal
	reads *atomic.Int64
}

func (j readCountJournal) Apply(ctx context.Context, actor string, fn func(tx store.JournalTx) error) error {
	return j.Journal.Apply(ctx, actor, func(tx store.JournalTx) error {
		return fn(readCountTx{tx, j.reads})
	})
}

type readCountTx struct {
	store.JournalTx
	reads *atomic.Int64
}

func (t readCountTx) Open(ctx context.Context, name string) (fs.File, error) {
	t.reads.Add(1)
	return t.JournalTx.Open(ctx, name)
}

func (t readCountTx) Snapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	t.reads.Add(1)
	return store.Snapshot(ctx, t.JournalTx, name, max)
}

// TestApplyPlanReadsBaseOnce: a journaled apply reads each base file once to plan it, for
// both its hash (the merge and the conflict check) and the change set's snapshot (issue
// 40.4: twice before); the files land and the journal can take the apply back.
func TestApplyPlanReadsBaseOnce(t *testing.T) {
	dir, base := hostBaseT(t, 20)
	reads := new(atomic.Int64)
	ov := newOverlay(t, readCountBase{base, reads}, sqliteUpper(t, filepath.Join(t.TempDir(), "u.db")))
	for i := range 20 {
		write(t, ov, fmt.Sprintf("d%d/f%d.txt", i%10, i), "changed\n")
	}
	done, err := ov.Apply(ctx, nil, nil)
	if err != nil || len(done) != 20 {
		t.Fatalf("applied %d: %v", len(done), err)
	}
	if n := reads.Load(); n > 20 {
		t.Errorf("the apply's change set read base files %d times for 20 changes, want at most 20", n)
	}
	if got := hostFile(t, dir, "d5/f15.txt"); got != "changed\n" {
		t.Errorf("d5/f15.txt = %q", got)
	}
	cs, err := base.Journal().Changes(ctx, store.ChangeFilter{})
	if err != nil || len(cs) < 20 {
		t.Fatalf("journal: %d changes, %v", len(cs), err)
	}
}
