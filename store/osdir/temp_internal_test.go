//go:build !js && !wasip1

package osdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".f.txt.llmfs-3218tyfkd4481": true,
		".f.llmfs-000000000000z":     true,
		".f.llmfs-0":                 false, // too short: tempName pads to 13
		"." + tmpPrefix(strings.Repeat("é", 200)) + ".llmfs-zz00000000000": true,
		"f.txt.llmfs-abc":             false, // no leading dot
		".f.txt.llmfs-":               false,
		".f.txt.llmfs-ABC":            false,
		".f.txt.llmfs-abc.go":         false,
		".f.txt.llmfs-12345678901234": false, // longer than a uint64 in base 36
		".llmfs-abc":                  false,
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
	for range 100 {
		if name := tempName("x.go"); !IsTemp(name) {
			t.Fatalf("IsTemp(%q) = false for a name tempName made", name)
		}
	}
}

// Issue 12.4: temporary files a crash left were listed, counted and never removed. They
// are hidden from ReadDir, and stale ones are removed there and at New.
func TestTempFilesHiddenAndSwept(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{".a.txt.llmfs-000000000old1", "sub/.b.txt.llmfs-000000000old2", ".c.txt.llmfs-00000000fresh"} {
		p = filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p, "fresh") {
			os.Chtimes(p, old, old)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Lstat(filepath.Join(dir, ".a.txt.llmfs-000000000old1")); err == nil {
		t.Error("New left a stale temporary file at the top")
	}
	if _, err := os.Lstat(filepath.Join(dir, ".c.txt.llmfs-00000000fresh")); err != nil {
		t.Error("New removed a fresh temporary file, which may be a write in progress")
	}
	for _, d := range []string{".", "sub"} {
		des, err := s.ReadDir(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			if IsTemp(de.Name()) {
				t.Errorf("ReadDir(%q) lists %s", d, de.Name())
			}
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "sub/.b.txt.llmfs-000000000old2")); err == nil {
		t.Error("ReadDir left a stale temporary file")
	}
}

// Every write mode leaves the file it wrote and nothing else.
func TestWritesLeaveNoTemps(t *testing.T) { testWritesLeaveNoTemps(t) }

func testWritesLeaveNoTemps(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		dir := t.TempDir()
		s, err := New(dir, relaxed)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		w := func(mode store.WriteMode, content string) error {
			_, err := s.WriteFile(ctx, "f.txt", strings.NewReader(content), store.WriteOptions{Mode: mode})
			return err
		}
		if err := w(store.Exclusive, "one\n"); err != nil {
			t.Fatal(err)
		}
		if err := w(store.Exclusive, "again\n"); !errors.Is(err, fs.ErrExist) {
			t.Errorf("relaxed=%v: exclusive write over a file: %v", relaxed, err)
		}
		os.Chmod(filepath.Join(dir, "f.txt"), 0o640)
		if err := w(store.Append, "two\n"); err != nil {
			t.Fatal(err)
		}
		if err := w(store.Append, "three\n"); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
		fi, _ := os.Stat(filepath.Join(dir, "f.txt"))
		if string(data) != "one\ntwo\nthree\n" || fi.Mode().Perm() != 0o640 {
			t.Errorf("relaxed=%v: after appends f.txt = %q, %v", relaxed, data, fi.Mode().Perm())
		}
		if err := w(store.Replace, "four\n"); err != nil {
			t.Fatal(err)
		}
		data, _ = os.ReadFile(filepath.Join(dir, "f.txt"))
		if string(data) != "four\n" {
			t.Errorf("relaxed=%v: after a replace f.txt = %q", relaxed, data)
		}
		assertOnly(t, dir, "f.txt")
	}
}

// assertOnly fails unless dir holds exactly the names given.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, de := range des {
		got = append(got, de.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// Review: IsTemp took any short lowercase suffix for a random one, so a user's old file
// such as ".env.llmfs-backup" was hidden from listings and deleted by the sweep. Only the
// fixed-length suffix tempName makes is taken for a temporary file.
func TestSweepSparesLookalikeUserFiles(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{".env.llmfs-backup", ".f.llmfs-0", ".notes.llmfs-v2"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	des, err := s.ReadDir(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(des) != 3 {
		t.Errorf("ReadDir lists %d of the 3 user files", len(des))
	}
	assertOnly(t, dir, ".env.llmfs-backup", ".f.llmfs-0", ".notes.llmfs-v2")
}
