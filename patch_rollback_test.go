package llmfs_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// failWrites is a store without transactions whose writes of chosen names fail with EIO
// once armed: a disk that fails in the middle of a patch and of its rollback. The fault
// cannot be had on demand from a real disk.
type failWrites struct {
	store.Store
	fail map[string]bool
}

func (f *failWrites) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	if f.fail[name] {
		return 0, &fsPathError{name}
	}
	n, err := f.Store.WriteFile(ctx, name, r, opts)
	if err == nil && name == "a.txt" {
		f.fail["a.txt"] = true // the patch's write lands; the rollback's will not
	}
	return n, err
}

type fsPathError struct{ name string }

func (e *fsPathError) Error() string { return "write " + e.name + ": input/output error" }
func (e *fsPathError) Unwrap() error { return syscall.EIO }

// TestPatchRollbackFailureNamed: when a patch fails and a file it changed cannot be put
// back, the error says the patch is not undone, names the file, and wraps both causes
// (issue 31, item 4), rather than pass for all or nothing.
func TestPatchRollbackFailureNamed(t *testing.T) {
	ctx := context.Background()
	m := mem.New()
	for name, c := range map[string]string{"a.txt": "one\n", "b.txt": "two\n"} {
		if _, err := m.WriteFile(ctx, name, strings.NewReader(c), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s := &failWrites{Store: m, fail: map[string]bool{"b.txt": true}}
	w := llmfs.New(s, nil)
	const p = "*** Begin Patch\n" +
		"*** Update File: a.txt\n@@\n-one\n+uno\n" +
		"*** Update File: b.txt\n@@\n-two\n+dos\n" +
		"*** End Patch\n"
	_, err := w.Patch(ctx, p, llmfs.PatchOptions{})
	if err == nil {
		t.Fatal("the patch succeeded")
	}
	var e *llmfs.Error
	if !errors.As(err, &e) || e.Code == "" {
		t.Fatalf("err = %v, want a coded error", err)
	}
	if !strings.Contains(e.Msg, "NOT undone") || !strings.Contains(e.Msg, "/a.txt") || strings.Contains(e.Msg, "/b.txt (") {
		t.Errorf("message = %q, want it to name a.txt (and only a.txt) as not put back", e.Msg)
	}
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("err = %v, want it to wrap EIO", err)
	}
	if got, _ := w.ReadFile(ctx, "a.txt", 100); string(got) != "uno\n" {
		t.Errorf("a.txt = %q: the message must describe what is there", got)
	}
}
