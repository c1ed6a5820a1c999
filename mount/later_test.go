//go:build linux

package mount_test

import (
	"context"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mount"
	"github.com/llmfs/llmfs/store"
)

// TestRunLinksInOneSet: under llmfs run (one apply, at the end) the links and the modes a
// command makes are in the run's one change set with its files, so undoing the set takes
// them all back. The command sees them at once: a link is read, listed, followed, moved,
// removed.
func TestRunLinksInOneSet(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.Full, Deny: []string{"secret.txt"}}, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"})
			m := mountWS(t, ws, mount.Options{Actor: "run:sh"})
			out := m.must(`mkdir bin
printf '#!/bin/sh\necho ran\n' > bin/tool && chmod +x bin/tool && cp bin/tool bin/copy
ln -s bin/tool tool
ln -s bin dirlink
ln -s a.txt l1 && mv l1 l2
ln -s nowhere gone && rm gone
touch -d 2001-02-03T04:05:06Z a.txt
./tool; dirlink/tool; readlink tool; test -L l2 && cat l2; ls`)
			if want := "ran\nran\nbin/tool\na\na.txt\nbin\ndirlink\nl2\ntool\n"; out != want {
				t.Errorf("in the run: %q, want %q", out, want)
			}
			if out, err := m.sh("ln -s secret.txt s"); err == nil {
				t.Errorf("a link to a denied path was made: %q", out)
			}
			if _, err := store.Lstat(ctx, ws.Store(), "tool"); err == nil {
				t.Errorf("the link is on the workspace before the run ends")
			}
			m.unmount()
			sl := ws.Store().(store.Symlinker)
			for name, want := range map[string]string{"tool": "bin/tool", "dirlink": "bin", "l2": "a.txt"} {
				if got, err := sl.Readlink(ctx, name); err != nil || got != want {
					t.Errorf("Readlink(%s) = %q, %v; want %q", name, got, err, want)
				}
			}
			for _, name := range []string{"bin/tool", "bin/copy"} { // chmod; created 0755 (cp)
				if fi, err := ws.Store().Stat(ctx, name); err != nil || fi.Mode().Perm() != 0o755 {
					t.Errorf("%s: %v, %v; want mode 0755", name, fi, err)
				}
			}
			if fi, err := ws.Store().Stat(ctx, "a.txt"); err != nil || fi.ModTime().Year() != 2001 {
				t.Errorf("a.txt: %v, %v; want the time touch set", fi, err)
			}
			cs := history(t, ws)
			if len(cs) == 0 {
				t.Fatal("no journal entries")
			}
			ops := map[string]int{}
			for _, c := range cs {
				ops[c.Op]++
				if c.Set != cs[0].Set || c.Actor != "run:sh" {
					t.Errorf("not one change set by the run:\n%s", paths(ws, cs))
					break
				}
			}
			if ops[llmfs.ChangeSymlink] != 3 || ops[llmfs.ChangeChmod] != 2 {
				t.Errorf("entries by op: %v, want 3 symlinks and 2 chmods:\n%s", ops, paths(ws, cs))
			}
			if _, err := ws.History().UndoSet(ctx, cs[0].ID); err != nil {
				t.Fatalf("undo of the run's set: %v", err)
			}
			for _, name := range []string{"tool", "dirlink", "l2", "bin/tool", "bin/copy", "bin"} {
				if _, err := store.Lstat(ctx, ws.Store(), name); err == nil {
					t.Errorf("%s is still there after the undo of the run's set", name)
				}
			}
			if got := read(t, ws, "a.txt"); got != "a\n" {
				t.Errorf("a.txt after the undo: %q", got)
			}
		})
	}
}

// TestRunOnlyLinks: a run that makes links and changes a mode, and writes nothing, is
// one change set all the same.
func TestRunOnlyLinks(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{}, map[string]string{"a.sh": "echo a\n"})
			m := mountWS(t, ws, mount.Options{Actor: "run:sh"})
			m.must("ln -s a.sh l && chmod +x a.sh")
			m.unmount()
			if got, err := ws.Store().(store.Symlinker).Readlink(ctx, "l"); err != nil || got != "a.sh" {
				t.Errorf("Readlink(l) = %q, %v", got, err)
			}
			cs := history(t, ws)
			if len(cs) != 2 || cs[0].Set != cs[1].Set || cs[0].Op != llmfs.ChangeSymlink || cs[1].Op != llmfs.ChangeChmod {
				t.Errorf("journal, want a symlink and a chmod in one set:\n%s", paths(ws, cs))
			}
		})
	}
}

// TestRunMovesOldLinkInOneSet: under a run, mv of a link the workspace had before the run
// lands in the run's one change set (it used to be moved beneath the session layer at
// once, a change set of its own before the run's), and undo of that set puts it back.
func TestRunMovesOldLinkInOneSet(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.Full}, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
			if _, err := ws.Symlink(ctx, "a.txt", "old"); err != nil {
				t.Fatal(err)
			}
			before := len(history(t, ws))
			m := mountWS(t, ws, mount.Options{Actor: "run:sh"})
			if out := m.must("mv old new && readlink new && test ! -e old && echo c >> b.txt && cat new"); out != "a.txt\na\n" {
				t.Errorf("in the run: %q", out)
			}
			if _, err := store.Lstat(ctx, ws.Store(), "new"); err == nil {
				t.Error("the moved link is on the workspace before the run ends")
			}
			m.unmount()
			if got, err := ws.Store().(store.Symlinker).Readlink(ctx, "new"); err != nil || got != "a.txt" {
				t.Errorf("Readlink(new) = %q, %v", got, err)
			}
			if _, err := store.Lstat(ctx, ws.Store(), "old"); err == nil {
				t.Error("old is still there after the run")
			}
			cs := history(t, ws)[before:]
			for _, c := range cs {
				if c.Set != cs[0].Set {
					t.Fatalf("the run made more than one change set:\n%s", paths(ws, cs))
				}
			}
			if _, err := ws.History().UndoSet(ctx, cs[0].ID); err != nil {
				t.Fatalf("undo of the run's set: %v", err)
			}
			if got, err := ws.Store().(store.Symlinker).Readlink(ctx, "old"); err != nil || got != "a.txt" {
				t.Errorf("after undo, Readlink(old) = %q, %v", got, err)
			}
			if _, err := store.Lstat(ctx, ws.Store(), "new"); err == nil {
				t.Error("new is still there after the undo")
			}
			if got := read(t, ws, "b.txt"); got != "b\n" {
				t.Errorf("b.txt after the undo: %q", got)
			}
		})
	}
}

// TestRunMoveLinkRefusedKeepsFile: under a run, mv of an old link over a file, where the
// link would name a denied path, is refused and leaves the file (it was removed before
// the link was checked, and lost).
func TestRunMoveLinkRefusedKeepsFile(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ws := b.open(t, &llmfs.Options{Mode: llmfs.Full, Deny: []string{"b/secret.txt"}}, map[string]string{"secret.txt": "s\n", "b/new": "keep\n"})
			if _, err := ws.Symlink(ctx, "secret.txt", "old"); err != nil {
				t.Fatal(err)
			}
			m := mountWS(t, ws, mount.Options{Actor: "run:sh"})
			// At b/new the relative target names b/secret.txt, which is denied.
			if out, err := m.sh("mv old b/new"); err == nil {
				t.Errorf("the link was moved to name a denied path: %q", out)
			}
			if out := m.must("cat b/new; readlink old"); out != "keep\nsecret.txt\n" {
				t.Errorf("after the refused mv: %q, want b/new and old as they were", out)
			}
			m.unmount()
			if got := read(t, ws, "b/new"); got != "keep\n" {
				t.Errorf("b/new after the run: %q", got)
			}
		})
	}
}
