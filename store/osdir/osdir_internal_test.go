//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

var ctx = context.Background()

// TestIsEscape pins isEscape, which recognizes os.Root's unexported escape error by its
// text, against the error the running Go version really returns.
func TestIsEscape(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"../x", "out/x", "out"} {
		_, err := root.Stat(name)
		if !isEscape(err) {
			t.Errorf("os.Root.Stat(%q) = %v: isEscape says no; the os package's message changed?", name, err)
		}
		if fixed := fixErr("stat", name, err); !errors.Is(fixed, store.ErrEscape) {
			t.Errorf("fixErr(%v) = %v, want store.ErrEscape", err, fixed)
		}
	}
	for _, err := range []error{nil, fs.ErrNotExist, &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}} {
		if isEscape(err) {
			t.Errorf("isEscape(%v) = true", err)
		}
	}
	if _, err := root.Stat("missing"); isEscape(err) {
		t.Errorf("isEscape(%v) = true for a missing file", err)
	}
}

// TestFIFO checks that a FIFO is refused at once by every method that could open it.
func TestFIFO(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		dir := t.TempDir()
		if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		if err := os.Symlink("fifo", filepath.Join(dir, "ln")); err != nil {
			t.Fatal(err)
		}
		s, err := New(dir, relaxed)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for _, name := range []string{"fifo", "ln"} {
				_, err := s.Open(ctx, name)
				if !errors.Is(err, store.ErrNotRegular) {
					t.Errorf("relaxed=%v: Open(%s) = %v, want ErrNotRegular", relaxed, name, err)
				}
				for _, mode := range []store.WriteMode{store.Replace, store.Append} {
					_, err = s.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{Mode: mode})
					if !errors.Is(err, store.ErrNotRegular) {
						t.Errorf("relaxed=%v: WriteFile(%s, mode %d) = %v, want ErrNotRegular", relaxed, name, mode, err)
					}
				}
				_, err = s.WriteFile(ctx, name, strings.NewReader("x"), store.WriteOptions{IfMatch: store.Hash(nil)})
				if err == nil {
					t.Errorf("relaxed=%v: conditional WriteFile(%s) succeeded", relaxed, name)
				}
				if err := store.Copy(ctx, s, name, name+"-copy"); err == nil {
					t.Errorf("relaxed=%v: Copy(%s) succeeded", relaxed, name)
				}
			}
			fi, err := s.Stat(ctx, "fifo")
			if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("Stat(fifo) = %v, %v; want a named pipe", fi, err)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("relaxed=%v: an operation on a FIFO blocked", relaxed)
		}
		if fi, err := os.Lstat(filepath.Join(dir, "fifo")); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v, %v", fi, err)
		}
	}
}

// TestSymlinkResolution checks the links os.Root cannot follow by itself: an absolute link
// that lands inside the root is followed (resolved, then retried through the root), and
// one that lands outside is refused.
func TestSymlinkResolution(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "ws")
	evil := filepath.Join(parent, "ws-evil")
	for _, d := range []string{dir, evil, filepath.Join(dir, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "sub", "in.txt"), "inside")
	write(filepath.Join(evil, "secret"), "secret")
	links := map[string]string{
		"rel-in":      "sub/in.txt",
		"abs-in":      filepath.Join(dir, "sub", "in.txt"),
		"abs-sub":     filepath.Join(dir, "sub"),
		"sub/up-in":   "../sub/in.txt",
		"abs-chain":   filepath.Join(dir, "rel-in"),
		"evil-abs":    filepath.Join(evil, "secret"),
		"evil-rel":    "../ws-evil/secret",
		"evil-dir":    evil,
		"evil-prefix": dir + "-evil/secret",
		"root-abs":    dir,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	read := func(name string) (string, error) {
		f, err := s.Open(ctx, name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	for _, name := range []string{"rel-in", "abs-in", "abs-sub/in.txt", "sub/up-in", "abs-chain", "root-abs/sub/in.txt", "root-abs/abs-in"} {
		if got, err := read(name); err != nil || got != "inside" {
			t.Errorf("read %s = %q, %v; want the file inside", name, got, err)
		}
	}
	if _, err := s.WriteFile(ctx, "abs-sub/new", strings.NewReader("new"), store.WriteOptions{}); err != nil {
		t.Errorf("write through an absolute link inside: %v", err)
	} else if b, _ := os.ReadFile(filepath.Join(dir, "sub", "new")); string(b) != "new" {
		t.Errorf("sub/new = %q", b)
	}
	for _, name := range []string{"evil-abs", "evil-rel", "evil-dir/secret", "evil-prefix"} {
		if got, err := read(name); !errors.Is(err, store.ErrEscape) {
			t.Errorf("read %s = %q, %v; want ErrEscape", name, got, err)
		}
		if _, err := s.WriteFile(ctx, name, strings.NewReader("pwned"), store.WriteOptions{}); !errors.Is(err, store.ErrEscape) {
			t.Errorf("write %s: %v, want ErrEscape", name, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(evil, "secret")); string(b) != "secret" {
		t.Errorf("the secret outside changed: %q", b)
	}
	if des, _ := os.ReadDir(evil); len(des) != 1 {
		t.Errorf("the outside directory holds %d entries", len(des))
	}
	// HostPath and resolve agree on where a name lives.
	if got, ok := s.resolve("abs-chain"); !ok || got != "sub/in.txt" {
		t.Errorf("resolve(abs-chain) = %q, %v; want sub/in.txt", got, ok)
	}
	if got, ok := s.resolve("abs-sub/not/yet/there"); !ok || got != "sub/not/yet/there" {
		t.Errorf("resolve(abs-sub/not/yet/there) = %q, %v; want sub/not/yet/there", got, ok)
	}
	if got, ok := s.resolve("evil-dir/not/there"); ok {
		t.Errorf("resolve(evil-dir/not/there) = %q inside, want outside", got)
	}
	if got, ok := s.resolve("evil-prefix"); ok {
		t.Errorf("resolve(evil-prefix) = %q inside, want outside", got)
	}
}

func TestTmpPrefix(t *testing.T) {
	long := strings.Repeat("é", 100)
	p := tmpPrefix(long)
	if len(p) > 64 || !strings.HasPrefix(long, p) || !utf8Valid(p) {
		t.Errorf("tmpPrefix(long) = %q (%d bytes)", p, len(p))
	}
	if got := tmpPrefix("short"); got != "short" {
		t.Errorf("tmpPrefix(short) = %q", got)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestReplaceKeepsMode checks that replacing a file keeps its permission bits: editing a
// script must not make it non-executable.
func TestReplaceKeepsMode(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		dir := t.TempDir()
		s, err := New(dir, relaxed)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for _, mode := range []fs.FileMode{0o755, 0o600, 0o644, 0o640, 0o664, 0o666, 0o700} {
			p := filepath.Join(dir, "script")
			if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
			if _, err := s.WriteFile(ctx, "script", strings.NewReader("#!/bin/sh\necho\n"), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("relaxed=%v: mode %v after a replace, want %v", relaxed, fi.Mode().Perm(), mode)
			}
		}
	}
}

func TestLockPathForgetsUnusedPaths(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock := lockPath("/same/path")
			unlock()
			lockPath(fmt.Sprintf("/p/%d", i))()
		}()
	}
	wg.Wait()
	locks.Lock()
	n := len(locks.m)
	locks.Unlock()
	if n != 0 {
		t.Fatalf("lock table holds %d entries after every writer finished, want 0", n)
	}
}

// TestConditionalWriteThroughAliases races conditional writes to one file under two names,
// its own and one through a symbolic link to its directory: exactly one may win each round.
func TestConditionalWriteThroughAliases(t *testing.T) {
	dir := t.TempDir()
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Mkdir(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "ln")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFile(ctx, "d/f", strings.NewReader("v0"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for round := range 20 {
		cur, err := os.ReadFile(filepath.Join(dir, "d", "f"))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		start := make(chan struct{})
		for i := range 8 {
			name := "d/f"
			if i%2 == 1 {
				name = "ln/f"
			}
			wg.Go(func() {
				<-start
				_, err := s.WriteFile(ctx, name, strings.NewReader(fmt.Sprintf("round %d by %d", round, i)),
					store.WriteOptions{IfMatch: store.Hash(cur)})
				if err == nil {
					mu.Lock()
					wins++
					mu.Unlock()
				} else if !errors.Is(err, store.ErrChanged) {
					t.Errorf("writer %d: %v", i, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if wins != 1 {
			t.Fatalf("round %d: %d conditional writers won, want 1", round, wins)
		}
	}
}

// TestRelaxedWriteThroughLinkOut checks that in relaxed mode a write through a symbolic
// link that leads out of the directory reaches the link's target, as the mode promises.
func TestRelaxedWriteThroughLinkOut(t *testing.T) {
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "out.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../out.txt", filepath.Join(ws, "l")); err != nil {
		t.Fatal(err)
	}
	s, err := New(ws, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFile(ctx, "l", strings.NewReader("new"), store.WriteOptions{IfMatch: store.Hash([]byte("old"))}); err != nil {
		t.Fatalf("WriteFile(l) in relaxed mode: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(top, "out.txt")); err != nil || string(b) != "new" {
		t.Errorf("out.txt = %q, %v; want the new content", b, err)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "l")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("l is no longer a link: %v", err)
	}
}
