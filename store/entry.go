package store

import (
	"bytes"
	"io/fs"
	"time"
)

// Entry describes a file or a directory as both an [fs.FileInfo] and an [fs.DirEntry] (so it
// is a [DirInfo]): for stores that keep their tree in memory or in a database, whose
// listings already know every size and time. Create one with [NewFile] or [NewDir].
type Entry struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

var _ DirInfo = (*Entry)(nil)

// NewFile describes a regular file (mode 0644).
func NewFile(name string, size int64, modTime time.Time) *Entry {
	return &Entry{name: name, size: size, mode: 0o644, modTime: modTime}
}

// NewDir describes a directory (mode 0755, size 0).
func NewDir(name string, modTime time.Time) *Entry {
	return &Entry{name: name, mode: fs.ModeDir | 0o755, modTime: modTime}
}

// NewLink describes a symbolic link whose target is size bytes long (mode 0777, as Linux
// reports every link).
func NewLink(name string, size int64, modTime time.Time) *Entry {
	return &Entry{name: name, size: size, mode: fs.ModeSymlink | 0o777, modTime: modTime}
}

// WithPerm sets e's permission bits to perm&0o777 and returns e; a zero perm (a store that
// never had them set) keeps the defaults.
func (e *Entry) WithPerm(perm fs.FileMode) *Entry {
	if perm&fs.ModePerm != 0 {
		e.mode = e.mode.Type() | perm&fs.ModePerm
	}
	return e
}

func (e *Entry) Name() string               { return e.name }
func (e *Entry) Size() int64                { return e.size }
func (e *Entry) Mode() fs.FileMode          { return e.mode }
func (e *Entry) ModTime() time.Time         { return e.modTime }
func (e *Entry) IsDir() bool                { return e.mode.IsDir() }
func (e *Entry) Sys() any                   { return nil }
func (e *Entry) Type() fs.FileMode          { return e.mode.Type() }
func (e *Entry) Info() (fs.FileInfo, error) { return e, nil }

// OpenBytes returns an open file that reads data and that e describes (Stat returns e),
// for stores that hold a file's content in memory. The file also implements [io.ReaderAt]
// and [io.Seeker]; once closed it fails with [fs.ErrClosed], as an [os.File] does. data
// must not be modified while the file is in use.
func OpenBytes(e *Entry, data []byte) fs.File {
	return &bytesFile{info: e, r: bytes.NewReader(data)}
}

type bytesFile struct {
	info   *Entry
	r      *bytes.Reader
	closed bool
}

func (f *bytesFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *bytesFile) Read(p []byte) (int, error) {
	if f.closed {
		return 0, f.errClosed("read")
	}
	return f.r.Read(p)
}

func (f *bytesFile) ReadAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, f.errClosed("read")
	}
	return f.r.ReadAt(p, off)
}

func (f *bytesFile) Seek(off int64, whence int) (int64, error) {
	if f.closed {
		return 0, f.errClosed("seek")
	}
	return f.r.Seek(off, whence)
}

func (f *bytesFile) Close() error {
	if f.closed {
		return f.errClosed("close")
	}
	f.closed = true
	return nil
}

func (f *bytesFile) errClosed(op string) error {
	return &fs.PathError{Op: op, Path: f.info.Name(), Err: fs.ErrClosed}
}
