// Package store defines the storage interface every llmfs backend implements.
//
// A [Store] is a small file system: a tree of regular files and directories addressed by
// slash-separated names relative to the store's root. Names follow the rules of
// [io/fs.ValidPath]: "." is the root, elements are separated by single slashes, and no
// element is "", "." or "..". A store refuses any other name with [ErrInvalidName].
//
// Stores report failures as *[io/fs.PathError] values that wrap the [io/fs] sentinels
// ([fs.ErrNotExist], [fs.ErrExist], [fs.ErrPermission], [fs.ErrInvalid]) or the sentinels of
// this package, so callers classify errors with [errors.Is] and never parse messages.
//
// Stores never import the llmfs core: path policy, sandboxing of user input, and error codes
// live there. A store only has to be correct for valid names.
package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
)

// Sentinel errors a store may wrap in addition to the io/fs ones.
var (
	// ErrInvalidName reports a name that is not a valid store name (see [io/fs.ValidPath]).
	ErrInvalidName = errors.New("invalid name")
	// ErrNotDir reports that a directory was expected, or that a parent element is a file.
	ErrNotDir = errors.New("not a directory")
	// ErrIsDir reports that a regular file was expected but the name is a directory.
	ErrIsDir = errors.New("is a directory")
	// ErrNotEmpty reports removing a directory that still has entries.
	ErrNotEmpty = errors.New("directory not empty")
	// ErrNotRegular reports a special file (FIFO, socket, device) that a store refuses to open.
	ErrNotRegular = errors.New("not a regular file")
	// ErrEscape reports a name that resolves, through a symbolic link, outside the store.
	ErrEscape = errors.New("path escapes from the store root")
	// ErrChanged reports that a conditional write found content other than the expected one.
	ErrChanged = errors.New("content changed since it was read")
	// ErrQuota reports that a write would exceed a store-enforced capacity limit.
	ErrQuota = errors.New("quota exceeded")
	// ErrCrossDevice reports a rename that the backend cannot do in one step.
	ErrCrossDevice = errors.New("cross-device rename")
)

// WriteMode says what [Store.WriteFile] does when the file already exists.
type WriteMode int

const (
	// Replace writes the new content in place of any existing file, atomically:
	// a reader sees the old content or the new, never a mix.
	Replace WriteMode = iota
	// Append adds the content at the end of the file, creating it if needed.
	Append
	// Exclusive creates the file and fails with [fs.ErrExist] if it exists.
	Exclusive
)

// WriteOptions control [Store.WriteFile].
type WriteOptions struct {
	Mode WriteMode
	// IfMatch, when not empty, makes the write conditional: it happens only if the file's
	// current content hashes (see [Hash]) to IfMatch, and fails with [ErrChanged] otherwise,
	// including when the file no longer exists. The check and the write are one atomic step
	// with respect to every other conditional write through the same backend.
	IfMatch string
	// IfAbsent makes a Replace fail with [ErrChanged] when the file exists, for callers that
	// saw no file and must not clobber one created since. It is ignored by other modes.
	IfAbsent bool
}

// A Store is the storage behind a workspace. Implementations must be safe for concurrent
// use by multiple goroutines.
type Store interface {
	// Stat describes the named file, following symbolic links that stay inside the store.
	Stat(ctx context.Context, name string) (fs.FileInfo, error)

	// ReadDir lists the named directory, sorted by name. A symbolic link is reported as
	// such (its Type has fs.ModeSymlink); callers that need its target use Stat.
	ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error)

	// Open opens the named regular file for reading. It fails with [ErrIsDir] for a
	// directory and [ErrNotRegular] for a FIFO, socket or device, without blocking.
	Open(ctx context.Context, name string) (fs.File, error)

	// WriteFile writes the content read from r to the named file according to opts.
	// The parent directory must exist. On any error the file is left as it was.
	// It returns the number of bytes written.
	WriteFile(ctx context.Context, name string, r io.Reader, opts WriteOptions) (int64, error)

	// Mkdir creates one directory. It fails with [fs.ErrExist] if the name exists.
	Mkdir(ctx context.Context, name string) error

	// Remove removes a regular file, a symbolic link, or an empty directory
	// ([ErrNotEmpty] otherwise).
	Remove(ctx context.Context, name string) error

	// Rename moves oldname to newname, which must not exist ([fs.ErrExist]); the parent of
	// newname must exist. Directories move with everything below them; moving one onto
	// itself or below itself fails with [fs.ErrInvalid]. A backend that
	// cannot do it in one step returns [ErrCrossDevice] and changes nothing.
	Rename(ctx context.Context, oldname, newname string) error
}

// A Locator is a Store that lives on the host file system and can tell where.
type Locator interface {
	Store
	// HostPath returns the host path of name, for display and for fast paths that read the
	// host directly (search). It does not check that the name exists.
	HostPath(name string) string
}

// A Copier is a Store that copies a regular file faster than reading and writing it.
type Copier interface {
	Store
	// Copy copies the regular file src to dst, which must not exist ([fs.ErrExist]).
	Copy(ctx context.Context, src, dst string) error
}

// A DirInfo is what [Store.ReadDir] entries carry in addition to [fs.DirEntry]; stores
// whose entries already know their size and time implement it so listing costs no stat.
type DirInfo interface {
	fs.DirEntry
	fs.FileInfo
}

// Copy copies the regular file src to dst using s's [Copier] if it has one, and a
// streaming read and exclusive write otherwise.
func Copy(ctx context.Context, s Store, src, dst string) error {
	if c, ok := s.(Copier); ok {
		return c.Copy(ctx, src, dst)
	}
	f, err := s.Open(ctx, src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = s.WriteFile(ctx, dst, f, WriteOptions{Mode: Exclusive})
	return err
}

// A Lstater is a Store that has symbolic links and can describe one without following it.
type Lstater interface {
	Store
	Lstat(ctx context.Context, name string) (fs.FileInfo, error)
}

// Lstat describes name without following a final symbolic link, using s's [Lstater] if it
// has one; a store without one has no symbolic links, so Stat serves.
func Lstat(ctx context.Context, s Store, name string) (fs.FileInfo, error) {
	if l, ok := s.(Lstater); ok {
		return l.Lstat(ctx, name)
	}
	return s.Stat(ctx, name)
}
