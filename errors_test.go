package llmfs_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// failStore fails every call with err.
type failStore struct{ err error }

func (f failStore) fail(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: f.err} }
func (f failStore) Stat(_ context.Context, name string) (fs.FileInfo, error) {
	return nil, f.fail("stat", name)
}
func (f failStore) ReadDir(_ context.Context, name string) ([]fs.DirEntry, error) {
	return nil, f.fail("readdir", name)
}
func (f failStore) Open(_ context.Context, name string) (fs.File, error) {
	return nil, f.fail("open", name)
}
func (f failStore) WriteFile(_ context.Context, name string, _ io.Reader, _ store.WriteOptions) (int64, error) {
	return 0, f.fail("write", name)
}
func (f failStore) Mkdir(_ context.Context, name string) error  { return f.fail("mkdir", name) }
func (f failStore) Remove(_ context.Context, name string) error { return f.fail("remove", name) }
func (f failStore) Rename(_ context.Context, o, _ string) error { return f.fail("rename", o) }

// TestErrorCodes checks that each store failure reaches the caller of every operation as
// the documented code, with the store's error still in the chain.
func TestErrorCodes(t *testing.T) {
	tests := []struct {
		err  error
		code llmfs.Code
	}{
		{fs.ErrNotExist, llmfs.CodeFileNotFound},
		{fs.ErrPermission, llmfs.CodePermissionDenied},
		{fs.ErrExist, llmfs.CodeFileAlreadyExists},
		{store.ErrNotEmpty, llmfs.CodeDirectoryNotEmpty},
		{store.ErrInvalidName, llmfs.CodeInvalidPath},
		{store.ErrEscape, llmfs.CodeInvalidPath},
		{store.ErrNotRegular, llmfs.CodeInvalidPath},
		{store.ErrNotDir, llmfs.CodeInvalidPath},
		{store.ErrIsDir, llmfs.CodeInvalidPath},
		{store.ErrChanged, llmfs.CodeFileChanged},
		{store.ErrQuota, llmfs.CodeQuotaExceeded},
		{errors.New("disk on fire"), llmfs.CodeIO},
	}
	for _, tt := range tests {
		w := llmfs.New(failStore{tt.err}, nil)
		ops := map[string]func() error{
			"read":   func() error { _, err := w.Read(bg, "f", llmfs.ReadOptions{}); return err },
			"write":  func() error { _, err := w.Write(bg, "f", "x", llmfs.WriteOptions{}); return err },
			"edit":   func() error { _, err := w.Edit(bg, "f", "a", "b", false); return err },
			"list":   func() error { _, err := w.List(bg, "d"); return err },
			"mkdir":  func() error { _, err := w.Mkdir(bg, "d"); return err },
			"delete": func() error { _, err := w.Delete(bg, "f"); return err },
			"move":   func() error { _, err := w.Move(bg, "f", "g"); return err },
			"copy":   func() error { _, err := w.Copy(bg, "f", "g"); return err },
		}
		for name, op := range ops {
			err := op()
			want := tt.code
			if name == "mkdir" && tt.err == store.ErrNotDir {
				want = llmfs.CodeFileAlreadyExists // a file is where a directory is needed
			}
			if code := llmfs.CodeOf(err); code != want {
				t.Errorf("%s with a store failing %v: %v (code %q), want %s", name, tt.err, err, code, want)
				continue
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: %v does not wrap %v", name, err, tt.err)
			}
			var e *llmfs.Error
			if errors.As(err, &e) && (e.Path == "" || e.Msg == "") {
				t.Errorf("%s: error without path or message: %+v", name, e)
			}
		}
	}
}

func TestErrorCodes_IsAndAs(t *testing.T) {
	w := llmfs.New(mem.New(), nil)
	_, err := w.Read(bg, "missing", llmfs.ReadOptions{})
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, &llmfs.Error{Code: llmfs.CodeFileNotFound}) {
		t.Errorf("errors.Is does not see FILE_NOT_FOUND as fs.ErrNotExist: %v", err)
	}
	_, err = w.Read(bg, "", llmfs.ReadOptions{})
	if !errors.Is(err, fs.ErrInvalid) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("INVALID_PATH: errors.Is mismatched: %v", err)
	}
}
