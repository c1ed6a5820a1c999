//go:build !js && !wasip1

package sqlstore_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store"
)

// TestReadCancellableContext: a read of SQLite with a context that can be cancelled costs
// what one with context.Background costs (the statements run detached from it; see
// Store.read), and a cancelled context still fails every read. Before, each statement
// started two goroutines to watch the context: 36 allocations a Stat instead of 28 (now
// 29: the context without its cancellation).
func TestReadCancellableContext(t *testing.T) {
	s := newWorkspace(t, connectSQLite(t), Quota{})
	if err := s.Mkdir(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	writeString(t, s, "d/f.txt", "hello\n", store.WriteOptions{})
	stat := func(c context.Context) func() {
		return func() {
			if _, err := s.Stat(c, "d/f.txt"); err != nil {
				t.Fatal(err)
			}
		}
	}
	live, cancel := context.WithCancel(context.Background())
	stat(live)()
	plain := testing.AllocsPerRun(200, stat(context.Background()))
	if got := testing.AllocsPerRun(200, stat(live)); got > plain+1 {
		t.Errorf("Stat allocates %.0f times with a cancellable context, %.0f with Background", got, plain)
	}

	f, err := s.Open(live, "d/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cancel()
	if _, err := s.Stat(live, "d/f.txt"); !errors.Is(err, context.Canceled) {
		t.Errorf("Stat with a cancelled context: %v", err)
	}
	if _, err := s.Open(live, "d/f.txt"); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context: %v", err)
	}
	if _, err := s.ReadDir(live, "d"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadDir with a cancelled context: %v", err)
	}
	if _, err := s.ReadDirContent(live, "d"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadDirContent with a cancelled context: %v", err)
	}
	// The first chunk came with Open; this file has no other, so reading it needs no
	// query and succeeds.
	if b, err := io.ReadAll(f); err != nil || string(b) != "hello\n" {
		t.Errorf("reading a file opened before the cancel: %q, %v", b, err)
	}
}

// BenchmarkStatContext is a Stat of SQLite with context.Background and with a context
// that can be cancelled, as a server's requests have.
func BenchmarkStatContext(b *testing.B) {
	s := newWorkspace(b, connectSQLite(b), Quota{})
	writeString(b, s, "f.txt", "hello\n", store.WriteOptions{})
	live, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"cancellable", live}} {
		b.Run(tc.name, func(b *testing.B) {
			defer reportCPU(b, cputime.Self())
			for b.Loop() {
				if _, err := s.Stat(tc.ctx, "f.txt"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
