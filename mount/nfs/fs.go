package nfs

import (
	"context"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	billy "github.com/go-git/go-billy/v5"
	nfsfile "github.com/willscott/go-nfs/file"

	"github.com/llmfs/llmfs/mount"
)

// fsys is the billy.Filesystem go-nfs serves: the shared session, seen by one actor.
type fsys struct {
	s     *Server
	actor string
}

var (
	_ billy.Filesystem = (*fsys)(nil)
	_ billy.Change     = (*fsys)(nil)
	_ billy.Capable    = (*fsys)(nil)
)

// rel is p relative to the root, as the Core wants it ("." for the root).
func rel(p string) string {
	p = path.Clean("/" + strings.ReplaceAll(p, "\\", "/"))
	if p == "/" {
		return "."
	}
	return p[1:]
}

// pathErr reports err of op on name as the errno a file system gives, which go-nfs turns
// into an NFS status (ENOENT: NOENT, EPERM/EACCES: ACCES, EDQUOT: DQUOT, ENOSPC: NOSPC).
func (f *fsys) pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &fs.PathError{Op: op, Path: name, Err: f.s.core.Errno(err)}
}

// Capabilities: a read-only workspace is served read-only, so every change is NFS3ERR_ROFS.
func (f *fsys) Capabilities() billy.Capability {
	if f.s.core.ReadOnly() {
		return billy.ReadCapability | billy.SeekCapability
	}
	return billy.DefaultCapabilities &^ billy.LockCapability
}

func (f *fsys) Join(elem ...string) string { return path.Join(elem...) }

func (f *fsys) Create(name string) (billy.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (f *fsys) Open(name string) (billy.File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name: a creation makes the file at once (committed when the CREATE
// ends), a write gets the file held open across WRITEs, a read a handle of its own (or
// the held file's, to read what was written).
func (f *fsys) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	ctx := context.Background()
	p := rel(name)
	core := f.s.core
	if flag&os.O_CREATE != 0 {
		if _, _, err := core.Lookup(ctx, p); err != nil || flag&os.O_EXCL != 0 {
			if err := f.s.files.closeUnder(p); err != nil {
				return nil, f.pathErr("open", name, err)
			}
			h, err := core.Create(ctx, p, f.actor, flag, uint32(perm.Perm())&^0o022, func() mount.Key { return &pathKey{p} })
			if err != nil {
				return nil, f.pathErr("open", name, err)
			}
			return &file{fs: f, name: p, h: h, flush: true}, nil
		}
	}
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_TRUNC) != 0 {
		hf, err := f.s.files.acquire(ctx, p, f.actor, flag)
		if err != nil {
			return nil, f.pathErr("open", name, err)
		}
		fl := &file{fs: f, name: p, h: hf.h, hf: hf}
		if flag&os.O_TRUNC != 0 {
			if err := fl.Truncate(0); err != nil {
				fl.Close()
				return nil, err
			}
		}
		return fl, nil
	}
	if hf := f.s.files.at(p); hf != nil {
		if hf, err := f.s.files.acquire(ctx, p, f.actor, os.O_RDWR); err == nil {
			return &file{fs: f, name: p, h: hf.h, hf: hf}, nil
		}
	}
	h, err := core.Open(ctx, &pathKey{p}, "", os.O_RDONLY)
	if err != nil {
		return nil, f.pathErr("open", name, err)
	}
	return &file{fs: f, name: p, h: h}, nil
}

// Stat describes name as the workspace shows it, with what the session knows better (a
// write buffer's size, modes and times set through the mount). A symbolic link is shown
// as a link (go-nfs asks for attributes of the name itself; the client follows links).
func (f *fsys) Stat(name string) (os.FileInfo, error) {
	p := rel(name)
	fi, k, err := f.s.core.Lookup(context.Background(), p)
	if err != nil {
		return nil, f.pathErr("stat", name, err)
	}
	if hf := f.s.files.at(p); hf != nil {
		k = hf.key
	}
	return f.info(k, p, fi), nil
}

func (f *fsys) Lstat(name string) (os.FileInfo, error) { return f.Stat(name) }

// info is fi with the session's attributes, in the form go-nfs reads (file.FileInfo).
func (f *fsys) info(k mount.Key, p string, fi os.FileInfo) os.FileInfo {
	a := f.s.core.Attr(k, p, fi)
	h := fnv.New64()
	h.Write([]byte(p))
	return &info{name: path.Base(p), a: a, sys: nfsfile.FileInfo{Nlink: 1, UID: uid, GID: gid, Fileid: h.Sum64()}}
}

var uid, gid = uint32(max(os.Getuid(), 0)), uint32(max(os.Getgid(), 0))

// info is an os.FileInfo of the mount.
type info struct {
	name string
	a    mount.Attr
	sys  nfsfile.FileInfo
}

func (i *info) Name() string { return i.name }
func (i *info) Size() int64 {
	if i.a.Dir {
		return 4096
	}
	return i.a.Size
}
func (i *info) Mode() fs.FileMode {
	if i.a.Link {
		return fs.ModeSymlink | 0o777
	}
	if i.a.Dir {
		return fs.ModeDir | fs.FileMode(i.a.Perm)
	}
	return fs.FileMode(i.a.Perm)
}
func (i *info) ModTime() time.Time { return i.a.Mtime }
func (i *info) IsDir() bool        { return i.a.Dir }
func (i *info) Sys() any           { return i.sys }

// Rename renames from to to, over an existing to (NFS's RENAME replaces), as one change.
func (f *fsys) Rename(from, to string) error {
	src, dst := rel(from), rel(to)
	if err := f.s.files.closeUnder(src); err != nil {
		return f.pathErr("rename", from, err)
	}
	if err := f.s.files.closeUnder(dst); err != nil {
		return f.pathErr("rename", to, err)
	}
	return f.pathErr("rename", from, f.s.core.Rename(context.Background(), src, dst, f.actor, false))
}

// Remove removes a file or an empty directory (NFS's REMOVE and RMDIR).
func (f *fsys) Remove(name string) error {
	ctx := context.Background()
	p := rel(name)
	fi, _, err := f.s.core.Lookup(ctx, p)
	if err != nil {
		return f.pathErr("remove", name, err)
	}
	if fi.IsDir() {
		if err := f.s.files.closeUnder(p); err != nil {
			return f.pathErr("remove", name, err)
		}
		return f.pathErr("remove", name, f.s.core.Rmdir(ctx, p, f.actor))
	}
	err = f.s.core.Unlink(ctx, p, f.actor) // marks a held file removed: nothing of it is committed
	f.s.files.closeUnder(p)
	return f.pathErr("remove", name, err)
}

// ReadDir lists dir as the workspace does (denied names are not listed).
func (f *fsys) ReadDir(dir string) ([]os.FileInfo, error) {
	ctx := context.Background()
	p := rel(dir)
	entries, err := f.s.core.ListNames(ctx, p)
	if err != nil {
		return nil, f.pathErr("readdir", dir, err)
	}
	out := make([]os.FileInfo, 0, len(entries))
	for _, e := range entries {
		cp := mount.Join(p, e.Name)
		fi, k, err := f.s.core.Lookup(ctx, cp)
		if err != nil {
			continue // gone since, or a FIFO, socket or device: not shown
		}
		if hf := f.s.files.at(cp); hf != nil {
			k = hf.key
		}
		out = append(out, f.info(k, cp, fi))
	}
	return out, nil
}

// MkdirAll makes the directory name (go-nfs checked its parent exists).
func (f *fsys) MkdirAll(name string, perm os.FileMode) error {
	return f.pathErr("mkdir", name, f.s.core.Mkdir(context.Background(), rel(name), f.actor))
}

// TempFile is not part of NFS.
func (f *fsys) TempFile(dir, prefix string) (billy.File, error) { return nil, billy.ErrNotSupported }

// Symlink makes link a symbolic link to target, stored as written (the client follows it).
func (f *fsys) Symlink(target, link string) error {
	p := rel(link)
	if err := f.s.core.Symlink(context.Background(), target, p, f.actor); err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: link, Err: f.s.core.Errno(err)}
	}
	return nil
}

// Readlink returns the target of the link as it was written.
func (f *fsys) Readlink(link string) (string, error) {
	t, err := f.s.core.Readlink(context.Background(), rel(link))
	return t, f.pathErr("readlink", link, err)
}

func (f *fsys) Chroot(string) (billy.Filesystem, error) { return nil, billy.ErrNotSupported }
func (f *fsys) Root() string                            { return "/" }

// Chmod sets the mode: the session shows it, the workspace keeps it (as under FUSE).
func (f *fsys) Chmod(name string, mode os.FileMode) error {
	p := rel(name)
	perm := uint32(mode.Perm())
	return f.pathErr("chmod", name, f.s.core.SetAttr(context.Background(), f.keyAt(p), p, f.actor, &perm, nil))
}

// Chtimes sets the modification time, as Chmod the mode.
func (f *fsys) Chtimes(name string, atime, mtime time.Time) error {
	p := rel(name)
	return f.pathErr("chtimes", name, f.s.core.SetAttr(context.Background(), f.keyAt(p), p, f.actor, nil, &mtime))
}

// Lchown and Chown: files have no owners of their own in the stores.
func (f *fsys) Lchown(name string, uid, gid int) error {
	return f.pathErr("chown", name, syscall.EPERM)
}
func (f *fsys) Chown(name string, uid, gid int) error { return f.Lchown(name, uid, gid) }

// keyAt is the key of the held file at p, or nil.
func (f *fsys) keyAt(p string) mount.Key {
	if hf := f.s.files.at(p); hf != nil {
		return hf.key
	}
	return nil
}
