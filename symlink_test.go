package llmfs_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// TestSymlink: a link made through the workspace is stored as a link, read through, journaled,
// and undone by removing it.
func TestSymlink(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "hello\n")
		if _, err := w.Symlink(bg, "d/f.txt", "ln"); err != nil {
			t.Fatal(err)
		}
		fi, err := store.Lstat(bg, w.Store(), "ln")
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("Lstat(ln) = %v, %v; want a link", fi, err)
		}
		if got, err := w.Store().(store.Symlinker).Readlink(bg, "ln"); err != nil || got != "d/f.txt" {
			t.Fatalf("Readlink = %q, %v", got, err)
		}
		res, err := w.Read(bg, "ln", llmfs.ReadOptions{})
		if err != nil || res.Content != "hello\n" {
			t.Fatalf("Read through the link = %v, %v", res, err)
		}
		if _, err := w.Symlink(bg, "d", "ln"); llmfs.CodeOf(err) != llmfs.CodeFileAlreadyExists {
			t.Fatalf("Symlink over a link = %v, want FILE_ALREADY_EXISTS", err)
		}
		c := history(t, w, llmfs.HistoryFilter{Limit: 1})
		if len(c) != 1 || c[0].Op != llmfs.ChangeSymlink || c[0].After.Kind != store.Link || c[0].Before.Kind != store.Absent {
			t.Fatalf("history = %+v, want the link's creation", c)
		}
		if _, err := w.History().Undo(bg, c[0].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Lstat(bg, w.Store(), "ln"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("after undo: Lstat(ln) = %v, want it gone", err)
		}
		if got := mustRaw(t, w, "d/f.txt"); got != "hello\n" {
			t.Fatalf("undo of the link touched its target: %q", got)
		}
	})
}

// TestUndoLinkRemovalAndMove: the journal keeps a link's target, so undo of its removal,
// and of its move, makes the link again (it refused: "it is a symbolic link").
func TestUndoLinkRemovalAndMove(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		if _, ok := w.Store().(store.Symlinker); !ok {
			t.Skip("the store keeps no links")
		}
		put(t, w, "f.txt", "hello\n")
		if _, err := w.Symlink(bg, "f.txt", "ln"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Delete(bg, "ln"); err != nil {
			t.Fatal(err)
		}
		c := history(t, w, llmfs.HistoryFilter{Limit: 1})
		if len(c) != 1 || c[0].Before.Kind != store.Link || c[0].After.Kind != store.Absent {
			t.Fatalf("history = %+v, want the link's removal", c)
		}
		if _, err := w.History().Undo(bg, c[0].ID); err != nil {
			t.Fatalf("undo of the removal: %v", err)
		}
		if got, err := w.Store().(store.Symlinker).Readlink(bg, "ln"); err != nil || got != "f.txt" {
			t.Fatalf("after undo: Readlink(ln) = %q, %v", got, err)
		}
		if _, err := w.Move(bg, "ln", "moved"); err != nil {
			t.Fatal(err)
		}
		c = history(t, w, llmfs.HistoryFilter{Limit: 1})
		if _, err := w.History().UndoSet(bg, c[0].ID); err != nil {
			t.Fatalf("undo of the move: %v", err)
		}
		if got, err := w.Store().(store.Symlinker).Readlink(bg, "ln"); err != nil || got != "f.txt" {
			t.Fatalf("after undo of the move: Readlink(ln) = %q, %v", got, err)
		}
		if _, err := store.Lstat(bg, w.Store(), "moved"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("after undo of the move: Lstat(moved) = %v, want it gone", err)
		}
		if got := mustRaw(t, w, "f.txt"); got != "hello\n" {
			t.Fatalf("the link's target changed: %q", got)
		}
	})
}

// TestSymlinkRefusals: the deny rules hold for a link's name and its target, and a
// read-only workspace makes none.
func TestSymlinkRefusals(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "a")
		for _, c := range []struct{ target, name string }{
			{"a.txt", ".env"},         // a denied name
			{".env", "innocent"},      // a denied target
			{"sub/../.env", "x"},      // the same, spelled around
			{w.Root() + "/.env", "y"}, // and absolute
		} {
			_, err := w.Symlink(bg, c.target, c.name)
			if llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
				t.Errorf("Symlink(%s -> %s) = %v, want PERMISSION_DENIED", c.name, c.target, err)
			}
			if _, err := store.Lstat(bg, w.Store(), strings.TrimPrefix(c.name, "./")); err == nil {
				t.Errorf("the refused link %s was made", c.name)
			}
		}
	})
	for _, b := range backends() {
		t.Run(b.name+"/read-only", func(t *testing.T) {
			w := b.new(t, &llmfs.Options{Mode: llmfs.ReadOnly})
			if _, err := w.Symlink(bg, "a", "ln"); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
				t.Fatalf("Symlink in a read-only workspace = %v, want PERMISSION_DENIED", err)
			}
			if _, err := w.SetAttr(bg, "a", llmfs.Attrs{SetPerm: true, Perm: 0o755}); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
				t.Fatalf("SetAttr in a read-only workspace = %v, want PERMISSION_DENIED", err)
			}
		})
	}
}

// TestSymlinkOutsideIsNeverFollowed: a link to /etc/passwd is stored as written, and no
// read, grep or find reaches what it names.
func TestSymlinkOutsideIsNeverFollowed(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for name, target := range map[string]string{"pw": "/etc/passwd", "up": "../../../../../../../../etc/passwd"} {
			if _, err := w.Symlink(bg, target, name); err != nil {
				t.Fatalf("Symlink(%s): %v", target, err)
			}
			if got, err := w.Store().(store.Symlinker).Readlink(bg, name); err != nil || got != target {
				t.Fatalf("Readlink(%s) = %q, %v; want it as written", name, got, err)
			}
			if res, err := w.Read(bg, name, llmfs.ReadOptions{}); err == nil {
				t.Fatalf("Read(%s) through a link to %s = %.60q, want a refusal", name, target, res.Content)
			}
		}
		g, err := w.Grep(bg, llmfs.GrepOptions{Pattern: "root:"})
		if err == nil && len(g.Entries) > 0 {
			t.Fatalf("grep found /etc/passwd's content through a link: %+v", g.Entries)
		}
	})
}

// TestSetAttr: permission bits and times are kept; a chmod is journaled.
func TestSetAttr(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "run.sh", "#!/bin/sh\n")
		then := time.Date(2002, 3, 4, 5, 6, 7, 0, time.UTC)
		if _, err := w.SetAttr(bg, "run.sh", llmfs.Attrs{SetPerm: true, Perm: 0o755, ModTime: then}); err != nil {
			t.Fatal(err)
		}
		fi, err := w.Store().Stat(bg, "run.sh")
		if err != nil || fi.Mode().Perm() != 0o755 || !fi.ModTime().Equal(then) {
			t.Fatalf("Stat = %v, %v; want mode 0755 and %v", fi, err, then)
		}
		c := history(t, w, llmfs.HistoryFilter{Limit: 1})
		if len(c) != 1 || c[0].Op != llmfs.ChangeChmod {
			t.Fatalf("history = %+v, want the chmod", c)
		}
		if _, err := w.SetAttr(bg, "missing", llmfs.Attrs{ModTime: then}); llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
			t.Fatalf("SetAttr of nothing = %v, want FILE_NOT_FOUND", err)
		}
		if _, err := w.SetAttr(bg, ".env", llmfs.Attrs{ModTime: then}); llmfs.CodeOf(err) != llmfs.CodePermissionDenied {
			t.Fatalf("SetAttr of a denied path = %v, want PERMISSION_DENIED", err)
		}
	})
}

// TestSymlinkWalks: on every store, grep and find walk past links made through the
// workspace (a file is found once, at its own name), and a listing shows a link as what it
// leads to, as on a host directory.
func TestSymlinkWalks(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "needle\n")
		for target, name := range map[string]string{"d": "dl", "d/f.txt": "fl.txt"} {
			if _, err := w.Symlink(bg, target, name); err != nil {
				t.Fatal(err)
			}
		}
		g, err := w.Grep(bg, llmfs.GrepOptions{Pattern: "needle", Mode: llmfs.GrepFiles})
		if err != nil || len(g.Entries) != 1 || g.Entries[0].Path != "d/f.txt" {
			t.Errorf("grep = %+v, %v; want d/f.txt once", g, err)
		}
		f, err := w.Find(bg, "**/*.txt", llmfs.FindOptions{})
		if err != nil || len(f.Files) != 1 || f.Files[0].Path != "d/f.txt" {
			t.Errorf("find = %+v, %v; want d/f.txt once", f, err)
		}
		l, err := w.ListNames(bg, ".")
		if err != nil || len(l) != 3 || l[1].Name != "dl" || l[1].Type != llmfs.TypeDirectory || l[2].Type != llmfs.TypeFile {
			t.Errorf("list = %+v, %v; want the links as their targets", l, err)
		}
	})
}
