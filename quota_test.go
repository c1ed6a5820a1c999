package llmfs_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// polStores are the stores quotas are tested on: a constructor for a workspace over a store
// already holding files (written below the workspace), and the store itself.
type polStore struct {
	name string
	open func(t *testing.T, files map[string]string, opts *llmfs.Options) (*llmfs.Workspace, store.Store)
}

func polMem() polStore {
	return polStore{"mem", func(t *testing.T, files map[string]string, opts *llmfs.Options) (*llmfs.Workspace, store.Store) {
		s := mem.New()
		polSeed(t, s, files)
		return llmfs.New(s, opts), s
	}}
}

func eachQuotaStore(t *testing.T, fn func(t *testing.T, ps polStore)) {
	for _, ps := range append([]polStore{polMem()}, polHostStores()...) {
		t.Run(ps.name, func(t *testing.T) { fn(t, ps) })
	}
}

func TestQuotaBytesPerFile(t *testing.T) {
	ctx := context.Background()
	eachQuotaStore(t, func(t *testing.T, ps polStore) {
		w, s := ps.open(t, map[string]string{"big.txt": strings.Repeat("x", 30), "a.txt": "12345"}, &llmfs.Options{Quota: llmfs.Quota{MaxFileBytes: 10}})
		_, err := w.Write(ctx, "deep/er/new.txt", strings.Repeat("y", 11), llmfs.WriteOptions{})
		polCode(t, "write 11 bytes", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "deep") {
			t.Error("a refused write created parent directories")
		}
		if !strings.Contains(err.Error(), "per file") || !strings.Contains(err.Error(), "nothing was written") {
			t.Errorf("message %q does not explain the per-file limit", err)
		}
		if _, err := w.Write(ctx, "deep/er/new.txt", strings.Repeat("y", 10), llmfs.WriteOptions{}); err != nil {
			t.Fatalf("write 10 bytes: %v", err)
		}
		_, err = w.Write(ctx, "a.txt", "678901", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		polCode(t, "append past the limit", err, llmfs.CodeQuotaExceeded)
		_, err = w.Edit(ctx, "a.txt", "12345", "12345678901", false)
		polCode(t, "edit past the limit", err, llmfs.CodeQuotaExceeded)
		if got, _ := polContent(t, s, "a.txt"); got != "12345" {
			t.Errorf("a.txt = %q after refused writes", got)
		}
		_, err = w.Copy(ctx, "big.txt", "copy.txt")
		polCode(t, "copy of a big file", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "copy.txt") {
			t.Error("a refused copy left a file")
		}
		// A file already over the limit may shrink.
		if _, err := w.Edit(ctx, "big.txt", strings.Repeat("x", 30), strings.Repeat("x", 20), false); err != nil {
			t.Errorf("shrinking an oversized file: %v", err)
		}
	})
}

func TestQuotaTotalBytes(t *testing.T) {
	ctx := context.Background()
	eachQuotaStore(t, func(t *testing.T, ps polStore) {
		// 50 bytes exist before the workspace opens; the quota counts them.
		w, s := ps.open(t, map[string]string{"old/a.txt": strings.Repeat("a", 40), "b.txt": strings.Repeat("b", 10)}, &llmfs.Options{Quota: llmfs.Quota{MaxBytes: 60}})
		if b, _, err := w.Usage(ctx); err != nil || b != 50 {
			t.Fatalf("Usage = %d, %v; want 50 bytes", b, err)
		}
		_, err := w.Write(ctx, "c.txt", strings.Repeat("c", 11), llmfs.WriteOptions{})
		polCode(t, "write past the total", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "c.txt") {
			t.Error("a refused write left a file")
		}
		if _, err := w.Write(ctx, "c.txt", strings.Repeat("c", 10), llmfs.WriteOptions{}); err != nil {
			t.Fatalf("write up to the total: %v", err)
		}
		_, err = w.Write(ctx, "b.txt", "!", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		polCode(t, "append at the total", err, llmfs.CodeQuotaExceeded)
		_, err = w.Copy(ctx, "b.txt", "b2.txt")
		polCode(t, "copy at the total", err, llmfs.CodeQuotaExceeded)
		// Overwriting with less frees space; so does deleting.
		if _, err := w.Write(ctx, "old/a.txt", "short", llmfs.WriteOptions{}); err != nil {
			t.Fatalf("shrinking overwrite: %v", err)
		}
		if _, err := w.Delete(ctx, "b.txt"); err != nil {
			t.Fatal(err)
		}
		if b, _, _ := w.Usage(ctx); b != 15 {
			t.Errorf("Usage after shrink and delete = %d bytes, want 15", b)
		}
		// Moves change nothing; sessions share the count.
		if _, err := w.Move(ctx, "c.txt", "moved.txt"); err != nil {
			t.Fatal(err)
		}
		ss := w.With(llmfs.NewSession())
		if _, err := ss.Write(ctx, "d.txt", strings.Repeat("d", 45), llmfs.WriteOptions{}); err != nil {
			t.Fatalf("write into the freed space: %v", err)
		}
		_, err = w.Write(ctx, "e.txt", "e", llmfs.WriteOptions{})
		polCode(t, "write after a session filled the quota", err, llmfs.CodeQuotaExceeded)
	})
}

func TestQuotaFileCount(t *testing.T) {
	ctx := context.Background()
	eachQuotaStore(t, func(t *testing.T, ps polStore) {
		// Two entries exist: the directory d and the file d/a.
		w, s := ps.open(t, map[string]string{"d/a": "a"}, &llmfs.Options{Quota: llmfs.Quota{MaxFiles: 4}})
		_, err := w.Write(ctx, "x/y/z.txt", "z", llmfs.WriteOptions{})
		polCode(t, "write needing 3 entries", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "x") {
			t.Error("a refused write created directories")
		}
		_, err = w.Mkdir(ctx, "m/n/o")
		polCode(t, "mkdir needing 3 entries", err, llmfs.CodeQuotaExceeded)
		if polExists(s, "m") {
			t.Error("a refused mkdir created directories")
		}
		if _, err := w.Mkdir(ctx, "e"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "e/f", "f", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		// Full: overwriting an existing file is fine, a new one is not.
		if _, err := w.Write(ctx, "e/f", "ff", llmfs.WriteOptions{}); err != nil {
			t.Errorf("overwrite at the file count: %v", err)
		}
		_, err = w.Write(ctx, "g", "g", llmfs.WriteOptions{})
		polCode(t, "new file at the count", err, llmfs.CodeQuotaExceeded)
		_, err = w.Move(ctx, "e/f", "h/f")
		polCode(t, "move needing a new directory", err, llmfs.CodeQuotaExceeded)
		if !polExists(s, "e/f") || polExists(s, "h") {
			t.Error("a refused move changed the tree")
		}
		if _, err := w.Move(ctx, "e/f", "f"); err != nil {
			t.Errorf("move within the count: %v", err)
		}
		if _, err := w.Delete(ctx, "f"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(ctx, "g", "g", llmfs.WriteOptions{}); err != nil {
			t.Errorf("write after a delete freed an entry: %v", err)
		}
	})
}

func TestNoQuotaCountsNothing(t *testing.T) {
	w := llmfs.New(mem.New(), nil)
	if b, n, err := w.Usage(context.Background()); b != 0 || n != 0 || err != nil {
		t.Errorf("Usage without a quota = %d, %d, %v", b, n, err)
	}
}

// TestQuotaConcurrentWrites checks that a quota check and the write it admits are one
// step: of many concurrent writers, exactly as many succeed as the quota holds.
func TestQuotaConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	eachQuotaStore(t, func(t *testing.T, ps polStore) {
		w, _ := ps.open(t, nil, &llmfs.Options{Quota: llmfs.Quota{MaxBytes: 100}})
		const writers = 25
		errs := make(chan error, writers)
		for i := range writers {
			go func() {
				ws := w.With(llmfs.NewSession())
				_, err := ws.Write(ctx, fmt.Sprintf("f%02d.txt", i), "0123456789", llmfs.WriteOptions{})
				errs <- err
			}()
		}
		ok := 0
		for range writers {
			err := <-errs
			switch llmfs.CodeOf(err) {
			case "":
				ok++
			case llmfs.CodeQuotaExceeded:
			default:
				t.Errorf("write: %v", err)
			}
		}
		if ok != 10 {
			t.Errorf("%d writes of 10 bytes succeeded under a 100-byte quota, want 10", ok)
		}
		if b, n, _ := w.Usage(ctx); b != 100 || n != 10 {
			t.Errorf("Usage = %d bytes, %d files; want 100, 10", b, n)
		}
	})
}

// A usage count that starts while a delete is under way must not see the file gone and
// then have the delete book its removal again.
func TestQuotaDeleteRacesFirstCount(t *testing.T) {
	fs := &faultStore{Store: mem.New()}
	w := llmfs.New(fs, &llmfs.Options{Quota: llmfs.Quota{MaxBytes: 1000}})
	// Writes below the quota's bounds need no count, so usage is still unknown here.
	if _, err := w.Store().WriteFile(bg, "a.txt", strings.NewReader("hello"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Store().WriteFile(bg, "b.txt", strings.NewReader("world!"), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	counted := make(chan struct{})
	fs.afterRemove = func(string) {
		go func() {
			w.Usage(bg) // the first count, while the delete is between Remove and booking
			close(counted)
		}()
		select {
		case <-counted:
		case <-time.After(100 * time.Millisecond): // blocked on the quota lock: good
		}
	}
	if _, err := w.Delete(bg, "a.txt"); err != nil {
		t.Fatal(err)
	}
	<-counted
	b, n, err := w.Usage(bg)
	noErr(t, err)
	if b != 6 || n != 1 {
		t.Errorf("Usage after delete = %d bytes, %d files; want 6, 1", b, n)
	}
}

// A failure to count usage names the root as the caller sees it: "/" in a virtual view,
// never the host path the workspace is rooted at.
func TestQuotaCountErrorVirtual(t *testing.T) {
	fs := &faultStore{Store: mem.New(), readDir: func(string) error {
		return &iofs.PathError{Op: "readdir", Path: "x", Err: iofs.ErrPermission}
	}}
	w := llmfs.New(fs, &llmfs.Options{Root: "/srv/secret-host-dir", Quota: llmfs.Quota{MaxFiles: 10}}).With(llmfs.VirtualPaths())
	_, err := w.Write(bg, "/a.txt", "x", llmfs.WriteOptions{})
	if err == nil {
		t.Fatal("Write succeeded; want the count's failure")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("Write error leaks the host root: %v", err)
	}
	var e *llmfs.Error
	if errors.As(err, &e) && strings.Contains(e.Path, "secret") {
		t.Errorf("Write error Path leaks the host root: %q", e.Path)
	}
}

// A quota does not change the code of a write that fails for another reason: a directory
// in the way is INVALID_PATH and an existing file in create mode FILE_ALREADY_EXISTS, as
// without a quota, even when the content would also pass a bound.
func TestQuotaKeepsWriteCodes(t *testing.T) {
	for _, q := range []llmfs.Quota{{}, {MaxFileBytes: 4}, {MaxBytes: 8}} {
		w := llmfs.New(mem.New(), &llmfs.Options{Quota: q})
		put(t, w, "a.txt", "abc")
		if _, err := w.Mkdir(bg, "d"); err != nil {
			t.Fatal(err)
		}
		_, err := w.Write(bg, "d", "0123456789", llmfs.WriteOptions{})
		if llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("quota %+v: Write over a directory = %v, want %s", q, err, llmfs.CodeInvalidPath)
		}
		_, err = w.Write(bg, "a.txt", "0123456789", llmfs.WriteOptions{Mode: llmfs.Create})
		if llmfs.CodeOf(err) != llmfs.CodeFileAlreadyExists {
			t.Errorf("quota %+v: Write in create mode over a file = %v, want %s", q, err, llmfs.CodeFileAlreadyExists)
		}
	}
}

// A write below a file fails for that reason, whatever room the quota leaves.
func TestQuotaKeepsNotADirectory(t *testing.T) {
	eachBackend(t, &llmfs.Options{Quota: llmfs.Quota{MaxFiles: 1}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f", "x")
		_, err := w.Write(bg, "f/b.txt", "y", llmfs.WriteOptions{})
		if llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("Write below a file with the quota full = %v, want %s", err, llmfs.CodeInvalidPath)
		}
		_, err = w.Mkdir(bg, "f/d/e")
		if llmfs.CodeOf(err) != llmfs.CodeFileAlreadyExists {
			t.Errorf("Mkdir below a file with the quota full = %v, want %s", err, llmfs.CodeFileAlreadyExists)
		}
		_, err = w.Copy(bg, "f", "f/c.txt")
		if llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("Copy below a file with the quota full = %v, want %s", err, llmfs.CodeInvalidPath)
		}
	})
}
