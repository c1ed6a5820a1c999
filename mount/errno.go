package mount

import (
	"context"
	"errors"
	"io/fs"
	"syscall"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// Errno translates what the Workspace said into what a process expects of a file system.
// A refusal of the work mode is EROFS in a read-only workspace and EPERM otherwise (a
// read-write workspace refuses to delete what it did not create).
func (m *Core) Errno(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		return en
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return syscall.EINTR
	}
	switch llmfs.CodeOf(err) {
	case llmfs.CodeFileNotFound:
		return syscall.ENOENT
	case llmfs.CodePermissionDenied:
		if m.ws.Settings().Mode == llmfs.ReadOnly {
			return syscall.EROFS
		}
		return syscall.EPERM
	case llmfs.CodeFileAlreadyExists:
		return syscall.EEXIST
	case llmfs.CodeDirectoryNotEmpty:
		return syscall.ENOTEMPTY
	case llmfs.CodeQuotaExceeded, llmfs.CodeFileTooLarge:
		return syscall.EDQUOT
	case llmfs.CodeFileChanged:
		m.logf("llmfs mount: %v", err)
		return syscall.EIO
	case llmfs.CodeInvalidPath:
		switch {
		case errors.Is(err, store.ErrIsDir):
			return syscall.EISDIR
		case errors.Is(err, store.ErrNotDir):
			return syscall.ENOTDIR
		case errors.Is(err, fs.ErrNotExist):
			return syscall.ENOENT
		}
		return syscall.EINVAL
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return syscall.ENOENT
	case errors.Is(err, fs.ErrExist):
		return syscall.EEXIST
	case errors.Is(err, store.ErrQuota):
		return syscall.EDQUOT
	case errors.Is(err, store.ErrNotEmpty):
		return syscall.ENOTEMPTY
	case errors.Is(err, store.ErrIsDir):
		return syscall.EISDIR
	case errors.Is(err, store.ErrNotDir):
		return syscall.ENOTDIR
	case errors.Is(err, store.ErrCrossDevice):
		return syscall.EXDEV
	case errors.Is(err, fs.ErrPermission):
		return syscall.EACCES
	case errors.Is(err, store.ErrInvalidName), errors.Is(err, fs.ErrInvalid), errors.Is(err, store.ErrEscape):
		return syscall.EINVAL
	}
	m.logf("llmfs mount: I/O error: %v", err) // unexpected: say what the process got EIO for
	return syscall.EIO
}
