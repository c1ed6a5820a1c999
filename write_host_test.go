//go:build !js && !wasip1

package llmfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// Issue 12.3: an append through a hard link changed the file outside the root that
// shares the inode. Every write mode replaces the link; the outside file stays as it was.
func TestAppendThroughHardLinkLeavesOutsideAlone(t *testing.T) {
	for _, mode := range []llmfs.WriteMode{llmfs.AppendTo, llmfs.Overwrite} {
		top := t.TempDir()
		ws, outside := filepath.Join(top, "ws"), filepath.Join(top, "outside")
		noErr(t, os.Mkdir(ws, 0o755))
		noErr(t, os.Mkdir(outside, 0o755))
		o := filepath.Join(outside, "o.txt")
		noErr(t, os.WriteFile(o, []byte("outside\n"), 0o644))
		noErr(t, os.Link(o, filepath.Join(ws, "h.txt")))
		w, err := host.Open(&llmfs.Options{Root: ws})
		noErr(t, err)
		_, err = w.Write(bg, "h.txt", "APPENDED\n", llmfs.WriteOptions{Mode: mode})
		noErr(t, err)
		if got, _ := os.ReadFile(o); string(got) != "outside\n" {
			t.Errorf("%s through a hard link changed the file outside the root: %q", mode, got)
		}
		want := "outside\nAPPENDED\n"
		if mode == llmfs.Overwrite {
			want = "APPENDED\n"
		}
		if got := mustRaw(t, w, "h.txt"); got != want {
			t.Errorf("%s: h.txt = %q, want %q", mode, got, want)
		}
	}
}

// Issue 12.4: a temporary file a crash left behind was listed and counted by the quota.
func TestCrashTempFilesNotListedOrCounted(t *testing.T) {
	root := t.TempDir()
	noErr(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	tmp := filepath.Join(root, ".a.txt.llmfs-0000000k3j2h1")
	noErr(t, os.WriteFile(tmp, []byte(strings.Repeat("partial\n", 125)), 0o644))
	w, err := host.Open(&llmfs.Options{Root: root, Quota: llmfs.Quota{MaxFiles: 2, MaxBytes: 100}})
	noErr(t, err)
	entries, err := w.List(bg, ".")
	noErr(t, err)
	if len(entries) != 1 || entries[0].Name != "a.txt" {
		t.Errorf("List = %+v, want a.txt alone", entries)
	}
	// Two files and 100 bytes allowed: the 1000-byte temporary file must not count.
	_, err = w.Write(bg, "b.txt", "b", llmfs.WriteOptions{})
	noErr(t, err)
	res, err := w.Find(bg, "*", llmfs.FindOptions{Hidden: true})
	noErr(t, err)
	for _, f := range res.Files {
		if filepath.Base(f.Path) == filepath.Base(tmp) {
			t.Errorf("find lists %s", f.Path)
		}
	}
	g, err := w.Grep(bg, llmfs.GrepOptions{Pattern: "", Hidden: true})
	noErr(t, err)
	for _, f := range g.Files() {
		if filepath.Base(f) == filepath.Base(tmp) {
			t.Errorf("grep lists %s", f)
		}
	}
	// A stale one is swept at the next open.
	old := time.Now().Add(-time.Hour)
	noErr(t, os.Chtimes(tmp, old, old))
	_, err = host.Open(&llmfs.Options{Root: root})
	noErr(t, err)
	if _, err := os.Lstat(tmp); err == nil {
		t.Error("a stale temporary file survived an open")
	}
}
