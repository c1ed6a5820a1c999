//go:build linux

package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/osdir"
)

// walkAnyTree makes a tree of nested directories with hidden and ignored files, for the
// unordered walk to be checked against the ordered one.
func walkAnyTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "*.log\nbuild/\n")
	for i := range 40 {
		for j := range 6 {
			write(fmt.Sprintf("d%02d/e%d/f.go", i, j), "x\n")
			write(fmt.Sprintf("d%02d/e%d/g.log", i, j), "x\n")
		}
		write(fmt.Sprintf("d%02d/.hidden/h.go", i), "x\n")
		write(fmt.Sprintf("d%02d/build/b.go", i), "x\n")
	}
	return dir
}

func walkAnyFS(t *testing.T, dir string) fileSystem {
	t.Helper()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fsys, err := pickFS(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.close() })
	return fsys
}

// TestWalkAnySameFiles: the unordered walk visits exactly the files of the ordered walk,
// under the same hidden and ignore rules, from several goroutines, and leaves no
// goroutine or descriptor behind.
func TestWalkAnySameFiles(t *testing.T) {
	dir := walkAnyTree(t)
	fsys := walkAnyFS(t, dir)
	var want []string
	if err := newWalker(context.Background(), fsys, walkOptions{threads: 2}).walk(".", dir, func(f file) bool {
		want = append(want, f.name)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) != 240 {
		t.Fatalf("ordered walk visited %d files, want 240", len(want))
	}
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	for _, threads := range []int{1, 2, 4} {
		var mu sync.Mutex
		var got []string
		if err := newWalker(context.Background(), fsys, walkOptions{threads: threads}).walkAny(".", dir, func(f file) bool {
			mu.Lock()
			got = append(got, f.name)
			mu.Unlock()
			return true
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("threads=%d: unordered walk visited %d files, the ordered one %d (or other names)", threads, len(got), len(want))
		}
	}
	if n := settle(goroutines); n > goroutines {
		t.Errorf("%d goroutines after the walks, %d before", n, goroutines)
	}
	if n := openFDs(t); n > fds {
		t.Errorf("%d descriptors open after the walks, %d before", n, fds)
	}
}

// TestWalkAnyStops: a visit that returns false, or a context that ends, stops the walk
// early, with its workers gone and its directories closed.
func TestWalkAnyStops(t *testing.T) {
	dir := walkAnyTree(t)
	fsys := walkAnyFS(t, dir)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	var visits atomic.Int32
	if err := newWalker(context.Background(), fsys, walkOptions{threads: 2}).walkAny(".", dir, func(f file) bool {
		return visits.Add(1) < 3
	}); err != nil {
		t.Fatal(err)
	}
	// Each worker may finish the listing it is in: at most a listing's files past the stop.
	if n := visits.Load(); n < 3 || n > 3+2*6 {
		t.Errorf("%d visits after the visit said stop at the third", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	visits.Store(0)
	done := make(chan error, 1)
	go func() {
		done <- newWalker(ctx, fsys, walkOptions{threads: 2}).walkAny(".", dir, func(f file) bool {
			if visits.Add(1) == 1 {
				cancel()
			}
			return true
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("walkAny did not return after its context ended")
	}
	if n := visits.Load(); n >= 240 {
		t.Errorf("%d visits: the ended context did not stop the walk", n)
	}
	if n := settle(goroutines); n > goroutines {
		t.Errorf("%d goroutines after the walks, %d before", n, goroutines)
	}
	if n := openFDs(t); n > fds {
		t.Errorf("%d descriptors open after the walks, %d before", n, fds)
	}
}
