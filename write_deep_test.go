package llmfs_test

import (
	"context"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// deepPath is a file depth directories deep.
func deepPath(depth int) string { return strings.Repeat("d/", depth) + "f.txt" }

// lookups is a store that counts the path elements its callers hand it: a host directory
// looks up each element of a name on every call, so this is the work a deep path costs.
type lookups struct {
	store.Store
	n int
}

func (l *lookups) count(name string) { l.n += strings.Count(name, "/") + 1 }

func (l *lookups) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	l.count(name)
	return l.Store.Stat(ctx, name)
}

func (l *lookups) Open(ctx context.Context, name string) (fs.File, error) {
	l.count(name)
	return l.Store.Open(ctx, name)
}

func (l *lookups) Mkdir(ctx context.Context, name string) error {
	l.count(name)
	return l.Store.Mkdir(ctx, name)
}

func (l *lookups) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	l.count(name)
	return l.Store.WriteFile(ctx, name, r, opts)
}

// MkdirChain looks up the chain's parent once and each new directory's name once, as
// store/osdir does.
func (l *lookups) MkdirChain(ctx context.Context, dirs []string) (int, error) {
	if len(dirs) > 0 {
		l.count(dirs[0])
		l.n += len(dirs) - 1
	}
	return store.MkdirChain(ctx, l.Store, dirs)
}

// TestDeepWriteLinear: a write of a new path 2,000 directories deep looks up a number of
// path elements linear in the depth, not quadratic (issue 31, item 7: 25 s of CPU on a
// host directory, where each store call walks the whole name). With the quota's count of
// new directories on, too.
func TestDeepWriteLinear(t *testing.T) {
	const depth = 2000
	for _, q := range []llmfs.Quota{{}, {MaxFiles: 1 << 20}} {
		s := &lookups{Store: mem.New()}
		w := llmfs.New(s, &llmfs.Options{Quota: q})
		if _, err := w.Write(context.Background(), deepPath(depth), "x", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		// A handful of calls on the whole name, and a bisection of its parents: some
		// 5 walks of it. One call per parent made 2,000 walks.
		if walks := s.n / depth; walks > 20 {
			t.Errorf("quota %+v: a write %d deep looked up %d path elements, %d times the depth", q, depth, s.n, walks)
		}
		if _, err := w.Read(context.Background(), deepPath(depth), llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDeepWriteUnderExisting: a write below existing directories makes only the missing
// ones, and a file on the way is refused as before.
func TestDeepWriteUnderExisting(t *testing.T) {
	ctx := context.Background()
	w := llmfs.New(mem.New(), nil)
	if _, err := w.Mkdir(ctx, "a/b/c"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "a/b/c/d/e/f.txt", "x", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "a/b/c/d/e/f.txt/g/h.txt", "x", llmfs.WriteOptions{}); err == nil {
		t.Error("a write below a file succeeded")
	}
	if _, err := w.Write(ctx, "a/b/c/d/e/f.txt/h.txt", "x", llmfs.WriteOptions{}); err == nil {
		t.Error("a write into a file succeeded")
	}
}
