//go:build linux

package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// openFDs counts the process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	des, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(des)
}

// settle waits for the goroutine count to fall to at most want, and returns it.
func settle(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// TestNoLeaks stops searches early (by head_limit and by cancelling the context mid-walk)
// and checks that they leave no goroutine and no file descriptor behind.
func TestNoLeaks(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		d := filepath.Join(dir, fmt.Sprintf("d%02d", i), "sub")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 30 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d.txt", j)), []byte(strings.Repeat("match here\n", 50)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := hostStore(t, dir)
	g0, f0 := runtime.NumGoroutine(), openFDs(t)
	for i := range 20 {
		if _, err := Grep(context.Background(), s, ".", GrepOptions{Pattern: "match", Mode: Content, HeadLimit: 1 + i, Threads: 4}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*100*time.Microsecond)
		Grep(ctx, s, ".", GrepOptions{Pattern: "match", Threads: 4})
		Find(ctx, s, ".", FindOptions{Pattern: "*.txt", Threads: 4})
		cancel()
	}
	if g := settle(g0); g > g0 {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after\n%s", g0, g, buf[:runtime.Stack(buf, true)])
	}
	if f := openFDs(t); f > f0 {
		t.Errorf("open file descriptors: %d before, %d after", f0, f)
	}
}

// TestStatErrors checks that the host fast path reports a bad name as the store does: the
// caller's name, and the store's sentinels.
func TestStatErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := mem.New()
	m.WriteFile(ctx, "file", strings.NewReader("x\n"), store.WriteOptions{})
	for _, s := range []store.Store{hostStore(t, dir), m} {
		for _, c := range []struct {
			name string
			want error
		}{
			{"missing", fs.ErrNotExist},
			{"file/below", store.ErrNotDir},
		} {
			_, gerr := Grep(ctx, s, c.name, GrepOptions{Pattern: "x"})
			_, ferr := Find(ctx, s, c.name, FindOptions{Pattern: "*"})
			for _, err := range []error{gerr, ferr} {
				var pe *fs.PathError
				if !errors.Is(err, c.want) || !errors.As(err, &pe) || pe.Path != c.name {
					t.Errorf("%T: search %q = %v, want a *fs.PathError for %q wrapping %v", s, c.name, err, c.name, c.want)
				}
			}
		}
	}
	_, err := Grep(ctx, hostStore(t, dir), "loop", GrepOptions{Pattern: "x"})
	if !errors.Is(err, store.ErrInvalidName) || strings.Contains(err.Error(), dir) {
		t.Errorf("Grep on a symbolic link loop = %v, want store.ErrInvalidName without the host path", err)
	}
}

// TestFindLeadingDirs checks that a find pattern's literal leading directories are entered
// only as a walk would enter them: not when a skip rule leaves one out, and not through a
// symbolic link unless links are followed.
func TestFindLeadingDirs(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "secret", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret", "sub", "key.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secret", filepath.Join(dir, "ln")); err != nil {
		t.Fatal(err)
	}
	s := hostStore(t, dir)
	skip := func(name string) bool { return name == "secret" }
	for _, c := range []struct {
		pattern string
		opts    FindOptions
		want    int
	}{
		{"secret/sub/*.txt", FindOptions{}, 1},
		{"secret/sub/*.txt", FindOptions{Skip: skip}, 0},
		{"secret/**/*.txt", FindOptions{Skip: skip}, 0},
		{"ln/sub/*.txt", FindOptions{}, 0},
		{"ln/sub/*.txt", FindOptions{Follow: true}, 1},
	} {
		c.opts.Pattern = c.pattern
		res, err := Find(context.Background(), s, ".", c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != c.want {
			t.Errorf("Find(%q, skip %v, follow %v) = %v, want %d files", c.pattern, c.opts.Skip != nil, c.opts.Follow, res.Files, c.want)
		}
	}
}

// unlistable is a store whose directory "locked" cannot be listed, as a directory without
// read permission cannot (the tests may run as root, whom permissions do not stop).
type unlistable struct{ store.Store }

func (u unlistable) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if name == "locked" {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return u.Store.ReadDir(ctx, name)
}

// TestUnlistableDir checks that a search of a directory that cannot be listed fails with
// the listing's error rather than report no match, while one of a directory above it
// skips it.
func TestUnlistableDir(t *testing.T) {
	ctx := context.Background()
	m := mem.New()
	m.Mkdir(ctx, "locked")
	m.WriteFile(ctx, "locked/f", strings.NewReader("x\n"), store.WriteOptions{})
	m.WriteFile(ctx, "g", strings.NewReader("x\n"), store.WriteOptions{})
	s := unlistable{m}
	if _, err := Grep(ctx, s, "locked", GrepOptions{Pattern: "x"}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Grep(locked) = %v, want fs.ErrPermission", err)
	}
	if _, err := Find(ctx, s, "locked", FindOptions{Pattern: "*"}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Find(locked) = %v, want fs.ErrPermission", err)
	}
	if res, err := Grep(ctx, s, ".", GrepOptions{Pattern: "x"}); err != nil || len(res.Entries) != 1 {
		t.Errorf("Grep(.) = %+v, %v; want g alone", res, err)
	}
	if res, err := Find(ctx, s, ".", FindOptions{Pattern: "*"}); err != nil || len(res.Files) != 1 {
		t.Errorf("Find(.) = %+v, %v; want g alone", res, err)
	}
}
