package llmfs_test

import (
	"io/fs"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

func TestFileMove_RenamesFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "payload\r\n")
		_, err := w.Move(bg, "src.txt", "dst.txt")
		noErr(t, err)
		if exists(w, "src.txt") || mustRaw(t, w, "dst.txt") != "payload\r\n" {
			t.Errorf("after Move: src exists %v, dst %q", exists(w, "src.txt"), mustRaw(t, w, "dst.txt"))
		}
	})
}

func TestFileMove_ReturnsAbsolutePaths(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a/src.txt", "x")
		res, err := w.Move(bg, "./a/../a/src.txt", "b/./dst.txt")
		noErr(t, err)
		if res.Source != abs(w, "a/src.txt") || res.Destination != abs(w, "b/dst.txt") {
			t.Errorf("Move = %+v", res)
		}
	})
}

func TestFileMove_DestinationExists(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "source")
		put(t, w, "dst.txt", "destination")
		put(t, w, "dir/inner", "x")
		for _, dst := range []string{"dst.txt", "dir", ".", "src.txt"} {
			_, err := w.Move(bg, "src.txt", dst)
			wantCode(t, err, llmfs.CodeFileAlreadyExists)
		}
		if mustRaw(t, w, "src.txt") != "source" || mustRaw(t, w, "dst.txt") != "destination" || mustRaw(t, w, "dir/inner") != "x" {
			t.Errorf("a refused Move changed a file")
		}
	})
}

func TestFileMove_CreatesParents(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "x")
		_, err := w.Move(bg, "src.txt", "new/deep/dir/dst.txt")
		noErr(t, err)
		if mustRaw(t, w, "new/deep/dir/dst.txt") != "x" || exists(w, "src.txt") {
			t.Errorf("Move into new directories failed")
		}
	})
}

func TestFileMove_SourceMustBeRegularFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Move(bg, "missing.txt", "dst.txt")
		wantCode(t, err, llmfs.CodeFileNotFound)
		put(t, w, "dir/inner", "x")
		_, err = w.Move(bg, "dir", "moved")
		wantCode(t, err, llmfs.CodeInvalidPath)
		if exists(w, "moved") || exists(w, "dst.txt") || mustRaw(t, w, "dir/inner") != "x" {
			t.Errorf("a refused Move changed the tree")
		}
		// A refused move creates no parent directories for its destination.
		_, err = w.Move(bg, "missing.txt", "newdir/dst.txt")
		wantCode(t, err, llmfs.CodeFileNotFound)
		if exists(w, "newdir") {
			t.Errorf("a refused Move created the destination's parent")
		}
	})
}

// crossDevice wraps w's store so that every rename fails as if across devices.
func crossDevice(w *llmfs.Workspace, remove func(name string) error) *llmfs.Workspace {
	fs := &faultStore{
		Store:  w.Store(),
		rename: func(o, n string) error { return &fs.PathError{Op: "rename", Path: o, Err: store.ErrCrossDevice} },
		remove: remove,
	}
	return llmfs.New(fs, &llmfs.Options{Root: w.Root()})
}

func TestFileMove_CrossDeviceFallsBackToCopy(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "across\n")
		cw := crossDevice(w, nil)
		res, err := cw.Move(bg, "src.txt", "other/dst.txt")
		noErr(t, err)
		if res.Destination != abs(w, "other/dst.txt") {
			t.Errorf("Destination = %q", res.Destination)
		}
		if exists(w, "src.txt") || mustRaw(t, w, "other/dst.txt") != "across\n" {
			t.Errorf("after a cross-device Move: src exists %v", exists(w, "src.txt"))
		}
		// The fallback refuses an existing destination like a rename would.
		put(t, w, "src2.txt", "two")
		_, err = cw.Move(bg, "src2.txt", "other/dst.txt")
		wantCode(t, err, llmfs.CodeFileAlreadyExists)
		if mustRaw(t, w, "other/dst.txt") != "across\n" || mustRaw(t, w, "src2.txt") != "two" {
			t.Errorf("a refused cross-device Move changed a file")
		}
	})
}

func TestFileMove_CrossDeviceRemovesCopyWhenDeleteFails(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "stays\n")
		cw := crossDevice(w, func(name string) error {
			if name == "src.txt" {
				return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrPermission}
			}
			return nil
		})
		_, err := cw.Move(bg, "src.txt", "dst.txt")
		wantCode(t, err, llmfs.CodePermissionDenied)
		if exists(w, "dst.txt") {
			t.Errorf("the copy was left behind after the source could not be deleted")
		}
		if mustRaw(t, w, "src.txt") != "stays\n" {
			t.Errorf("the source changed")
		}
	})
}

func TestFileMove_CrossDeviceCopyFailureChangesNothing(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "src.txt", "stays\n")
		cw := crossDevice(w, nil)
		cw = llmfs.New(&faultStore{
			Store: cw.Store(),
			write: func(name string) error { return &fs.PathError{Op: "write", Path: name, Err: store.ErrQuota} },
		}, &llmfs.Options{Root: w.Root()})
		_, err := cw.Move(bg, "src.txt", "dst.txt")
		wantCode(t, err, llmfs.CodeQuotaExceeded)
		if exists(w, "dst.txt") || mustRaw(t, w, "src.txt") != "stays\n" {
			t.Errorf("a failed cross-device Move changed the tree")
		}
	})
}
