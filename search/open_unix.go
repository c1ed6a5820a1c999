//go:build unix

package search

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/llmfs/llmfs/internal/hosttemp"
	"golang.org/x/sys/unix"
)

// hostDir is an open host directory that files are opened relative to: the kernel then
// resolves only the path below it, not the whole path from "/" again for every file.
type hostDir struct {
	path string
	fd   int
}

func openHostDir(path string) (*hostDir, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &hostDir{path: path, fd: fd}, nil
}

func (d *hostDir) close() error { return syscall.Close(d.fd) }

// open opens the file at the slash-separated name below d for reading, with one system
// call: os.Open would add a stat and poller bookkeeping per file, which shows on trees of
// many small files. On Linux no symbolic link is followed on the way (see [openBeneath]),
// so a link swapped in after the walk saw a regular file or a directory cannot lead out;
// elsewhere only a final link is refused, and a directory on the way swapped for a link
// in that window is followed. The open cannot block on a FIFO swapped in (O_NONBLOCK).
func (d *hostDir) open(name string) (io.ReadCloser, error) {
	dirfd, base, err := d.parentOf(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if dirfd != d.fd {
		defer syscall.Close(dirfd)
	}
	fd, err := openBeneath(dirfd, base, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &rawFile{fd: fd}, nil
}

// readDir lists the directory at the slash-separated name below d, sorted by name if
// sorted, opening it as open opens files.
func (d *hostDir) readDir(name string, sorted bool) ([]fs.DirEntry, error) {
	fd, err := openBeneath(d.fd, name, dirFlags)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	// The full host path, so that the entries' Info methods can find them.
	return listFD(fd, d.path+"/"+name, sorted)
}

const dirFlags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_DIRECTORY

// longName is the length from which a name is opened one directory at a time: the kernel
// refuses a path of PATH_MAX (4,096) bytes or more, and a walk reaches deeper than that.
const longName = 2048

// parentOf returns the directory to open name's last element in, and that element: d
// itself and name when name is short, and otherwise name's parent directory, opened one
// element at a time beneath d (each open as [openBeneath] does: no "..", no link), which
// the caller closes.
func (d *hostDir) parentOf(name string) (int, string, error) {
	if len(name) < longName {
		return d.fd, name, nil
	}
	dirfd := d.fd
	for {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return dirfd, name, nil
		}
		fd, err := openBeneath(dirfd, name[:i], dirFlags)
		if dirfd != d.fd {
			syscall.Close(dirfd)
		}
		if err != nil {
			return 0, "", err
		}
		dirfd, name = fd, name[i+1:]
	}
}

// dirHandle is a directory a walk listed, held open while its subdirectories are listed
// relative to it.
type dirHandle struct{ fd int }

func (h *dirHandle) close() { syscall.Close(h.fd) }

// modTime returns the modification time of base, an entry of h, without following it if
// it is a symbolic link; name is its store name, for the error.
func (h *dirHandle) modTime(base, name string) (time.Time, error) {
	return statModTime(h.fd, base, name)
}

// statModTime returns the modification time of base in the directory dirfd, without
// following it if it is a symbolic link; name is the whole name, for the error.
func statModTime(dirfd int, base, name string) (time.Time, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
		}
		return time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), nil
	}
}

// readDirAt lists the directory name, opened relative to its parent's handle when there
// is one, and returns it open, for its own subdirectories to be opened relative to it:
// each open then resolves one path element, not the whole path from the root again,
// which at a depth of thousands made a walk quadratic and then failed (a path longer than
// PATH_MAX). The open is beneath the parent as the root's opens are beneath the root
// (no "..", no symbolic link; see [openBeneath]), and the parent was opened the same way,
// so the directory is inside the root when it is opened. Should a directory held open be
// moved out of the root by a process on the host, its entries are listed where it went,
// as a file being read when it is moved is read on: the walk never resolves a path
// through a link or "..", but it holds what it opened. Where the open meets a symbolic
// link (a name the walk follows by choice), readDirAt lists as readDir does, and returns
// no handle.
func (f hostFS) readDirAt(parent *dirHandle, name string) ([]fs.DirEntry, *dirHandle, error) {
	var fd int
	var err error
	if parent == nil {
		fd, err = openBeneath(f.dir.fd, name, dirFlags)
	} else {
		fd, err = openBeneath(parent.fd, name[strings.LastIndexByte(name, '/')+1:], dirFlags)
	}
	if err != nil {
		if isLinkErr(err) {
			des, err := f.readDir(context.Background(), name)
			return des, nil, err
		}
		return nil, nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	des, err := listFD(fd, f.dir.path+"/"+name, !f.anyOrder)
	if err != nil {
		syscall.Close(fd)
		return nil, nil, err
	}
	return slices.DeleteFunc(des, func(de fs.DirEntry) bool { return hosttemp.IsTemp(de.Name()) }), &dirHandle{fd: fd}, nil
}

// isLinkErr reports whether err may be what openBeneath says when a path passes through
// a symbolic link: ELOOP, EXDEV, or ENOTDIR for a directory opened with O_NOFOLLOW.
func isLinkErr(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENOTDIR)
}

// openat opens name below dirfd without following a final symbolic link, retrying on
// EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags|unix.O_NOFOLLOW, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// rawFile is a file descriptor read with plain system calls.
type rawFile struct{ fd int }

func (f *rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }
