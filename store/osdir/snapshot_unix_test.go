//go:build unix

package osdir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestQuickSnapshotAgrees checks that the raw-descriptor snapshot says what the general
// path says for every kind of name it takes, and leaves to it the names it does not.
func TestQuickSnapshotAgrees(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	mk := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("f.txt", "hello\n")
	mk("empty", "")
	mk("big", strings.Repeat("x", 100))
	mk("d/e/g.txt", "deep\n")
	for _, l := range [][2]string{{"f.txt", "link"}, {"d", "dlink"}, {filepath.Join(dir, "d"), "abslink"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const max = 64
	quick := map[string]bool{"f.txt": true, "empty": true, "d": true, "d/e": true, "d/e/g.txt": true,
		"link": true, "dlink": true, "abslink": true, "missing": true, "d/missing": true, "nodir/x": true,
		"f.txt/x": true, ".": true}
	for _, name := range []string{"f.txt", "empty", "big", "d", "d/e", "d/e/g.txt", "link", "dlink", "abslink",
		"dlink/e/g.txt", "abslink/e/g.txt", "fifo", "missing", "d/missing", "nodir/x", "f.txt/x", ".", "../x", "/etc"} {
		qv, qdata, ok, qerr := s.quickSnapshot(name, max)
		if ok != quick[name] {
			t.Errorf("%s: quick path taken %v, want %v", name, ok, quick[name])
		}
		v, data, err := s.openSnapshot(ctx, name, max)
		if !ok {
			continue
		}
		if (qerr != nil) != (err != nil) || !qv.Equal(v) || qv.Kind != v.Kind || string(qdata) != string(data) || (qdata == nil) != (data == nil) {
			t.Errorf("%s: quick %+v %q %v, general %+v %q %v", name, qv, qdata, qerr, v, data, err)
		}
	}
	// The general path reports the FIFO and reads the large file's hash.
	if _, _, err := s.Snapshot(ctx, "fifo", max); !errors.Is(err, store.ErrNotRegular) {
		t.Errorf("fifo: %v, want ErrNotRegular", err)
	}
	if v, data, err := s.Snapshot(ctx, "big", max); err != nil || data != nil || v.Hash != store.Hash([]byte(strings.Repeat("x", 100))) {
		t.Errorf("big: %+v %q %v", v, data, err)
	}
	// After Close the quick path steps aside.
	s.Close()
	if _, _, ok, _ := s.quickSnapshot("f.txt", max); ok {
		t.Error("quick snapshot after Close")
	}
}
