package llmfs_test

import (
	"context"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

var bg = context.Background()

// A backend makes a fresh sandboxed workspace of one kind.
type backend struct {
	name string
	new  func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace
}

// backends are the stores the core tests run on: a host directory and memory.
func backends() []backend {
	return append(hostBackends(), backend{"mem", func(t *testing.T, opts *llmfs.Options) *llmfs.Workspace {
		return llmfs.New(mem.New(), opts)
	}})
}

// eachBackend runs fn once per backend, on a workspace made with opts (nil for defaults).
func eachBackend(t *testing.T, opts *llmfs.Options, fn func(t *testing.T, w *llmfs.Workspace)) {
	t.Helper()
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			var o llmfs.Options
			if opts != nil {
				o = *opts
			}
			fn(t, b.new(t, &o))
		})
	}
}

// put writes content to p, failing the test on error.
func put(t *testing.T, w *llmfs.Workspace, p, content string) {
	t.Helper()
	if _, err := w.Write(bg, p, content, llmfs.WriteOptions{}); err != nil {
		t.Fatalf("Write(%q): %v", p, err)
	}
}

// raw returns the bytes of the file at the workspace-relative path p, read from the store
// without the read caps, and whether it exists as a file.
func raw(t *testing.T, w *llmfs.Workspace, p string) (string, bool) {
	t.Helper()
	f, err := w.Store().Open(bg, storeName(p))
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return string(b), true
}

// mustRaw is raw that fails the test if p is not a file.
func mustRaw(t *testing.T, w *llmfs.Workspace, p string) string {
	t.Helper()
	s, ok := raw(t, w, p)
	if !ok {
		t.Fatalf("%s does not exist", p)
	}
	return s
}

// exists reports whether anything is at the workspace-relative path p.
func exists(w *llmfs.Workspace, p string) bool {
	_, err := store.Lstat(bg, w.Store(), storeName(p))
	return err == nil
}

func isDir(w *llmfs.Workspace, p string) bool {
	fi, err := w.Store().Stat(bg, storeName(p))
	return err == nil && fi.IsDir()
}

func storeName(p string) string {
	p = path.Clean(p)
	if p == "/" || p == "" {
		return "."
	}
	return strings.TrimPrefix(p, "/")
}

// abs is the absolute path a workspace shows for the relative path p.
func abs(w *llmfs.Workspace, p string) string {
	return path.Join(w.Root(), p)
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code llmfs.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	if got := llmfs.CodeOf(err); got != code {
		t.Fatalf("error %v (code %q), want %s", err, got, code)
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// readAll reads the whole of p with no limit.
func readAll(t *testing.T, w *llmfs.Workspace, p string) *llmfs.ReadResult {
	t.Helper()
	res, err := w.Read(bg, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
	if err != nil {
		t.Fatalf("Read(%q): %v", p, err)
	}
	return res
}

// faultStore wraps a store and fails some calls, for the paths real stores rarely take.
type faultStore struct {
	store.Store
	rename func(oldname, newname string) error // nil: pass through
	remove func(name string) error             // nil: pass through
	write  func(name string) error             // nil: pass through
	// afterRemove runs after a successful Remove; nil: nothing.
	afterRemove func(name string)
	readDir     func(name string) error // nil: pass through
}

func (f *faultStore) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	if f.readDir != nil {
		if err := f.readDir(name); err != nil {
			return nil, err
		}
	}
	return f.Store.ReadDir(ctx, name)
}

func (f *faultStore) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	if f.write != nil {
		if err := f.write(name); err != nil {
			return 0, err
		}
	}
	return f.Store.WriteFile(ctx, name, r, opts)
}

func (f *faultStore) Rename(ctx context.Context, oldname, newname string) error {
	if f.rename != nil {
		if err := f.rename(oldname, newname); err != nil {
			return err
		}
	}
	return f.Store.Rename(ctx, oldname, newname)
}

func (f *faultStore) Remove(ctx context.Context, name string) error {
	if f.remove != nil {
		if err := f.remove(name); err != nil {
			return err
		}
	}
	if err := f.Store.Remove(ctx, name); err != nil {
		return err
	}
	if f.afterRemove != nil {
		f.afterRemove(name)
	}
	return nil
}
