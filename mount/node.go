//go:build linux

package mount

import (
	"context"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/llmfs/llmfs"
)

// node is a file or directory of the mount. Its path is where the kernel's tree puts it,
// so a rename moves it with no bookkeeping here.
type node struct {
	gofs.Inode
	m    *mfs
	read readKey // its file as the last read-only open saw it (passthrough.go)
}

var (
	_ gofs.NodeLookuper  = (*node)(nil)
	_ gofs.NodeGetattrer = (*node)(nil)
	_ gofs.NodeSetattrer = (*node)(nil)
	_ gofs.NodeReaddirer = (*node)(nil)
	_ gofs.NodeStatfser  = (*node)(nil)
)

// rel is the node's path relative to the root ("." for the root).
func (n *node) rel() string {
	p := n.Path(nil)
	if p == "" {
		return "."
	}
	return p
}

func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// stat describes p as the workspace shows it: nothing for a denied path, a symbolic link
// as what it leads to (the stores have no way to make one, so the mount shows none).
func (m *mfs) stat(ctx context.Context, p string) (fs.FileInfo, error) {
	ws := m.ws
	if p != "." && ws.Paths().DeniedPath(ctx, p) {
		return nil, syscall.ENOENT
	}
	name, err := ws.Paths().StoreName(p)
	if err != nil {
		return nil, err
	}
	fi, err := ws.Store().Stat(ctx, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, syscall.ENOENT // FIFOs, sockets, devices: no operation could use them
	}
	return fi, nil
}

// fill sets out from fi and what the session knows better (modes, times, open buffers).
func (m *mfs) fill(n *node, p string, fi fs.FileInfo, out *fuse.Attr) {
	mode := fi.Mode()
	perm := uint32(mode.Perm())
	typ := uint32(syscall.S_IFREG)
	if fi.IsDir() {
		typ = syscall.S_IFDIR
		if perm == 0 {
			perm = 0o755
		}
	} else if perm == 0 {
		perm = 0o644
	}
	out.Size = uint64(fi.Size())
	mt := fi.ModTime()
	m.mu.Lock()
	if md, ok := m.meta[p]; ok {
		if md.perm != 0 {
			perm = md.perm
		}
		if !md.mtime.IsZero() {
			mt = md.mtime
		}
	}
	if of := m.files[n]; n != nil && of != nil && of.spill != nil {
		out.Size = uint64(of.size)
		if !of.mtime.IsZero() {
			mt = of.mtime
		}
	}
	m.mu.Unlock()
	out.Mode = typ | perm
	if fi.IsDir() {
		out.Size = 4096
		out.Nlink = 2
	} else {
		out.Nlink = 1
	}
	out.SetTimes(nil, &mt, &mt)
	out.Blocks = (out.Size + 511) / 512
	out.Blksize = 4096
	out.Uid = uint32(os.Getuid())
	out.Gid = uint32(os.Getgid())
}

// child returns the inode of name under n, reusing the one the tree has when it is of the
// same kind.
func (n *node) child(ctx context.Context, name string, dir bool) *gofs.Inode {
	mode := uint32(syscall.S_IFREG)
	if dir {
		mode = syscall.S_IFDIR
	}
	if ch := n.GetChild(name); ch != nil && ch.StableAttr().Mode == mode {
		return ch
	}
	return n.NewInode(ctx, &node{m: n.m}, gofs.StableAttr{Mode: mode})
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	p := join(n.rel(), name)
	fi, err := n.m.stat(ctx, p)
	if err != nil {
		// A file just created and still open for writing is not in the workspace yet;
		// other processes see it all the same.
		if of := n.m.openAt(p); of != nil && of.created && !n.m.ws.Paths().DeniedPath(ctx, p) {
			n.m.fill(of.n, p, newInfo(p), &out.Attr)
			out.Ino = of.n.StableAttr().Ino
			return &of.n.Inode, 0
		}
		return nil, n.m.errno(err)
	}
	ch := n.child(ctx, name, fi.IsDir())
	n.m.fill(ch.Operations().(*node), p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}

func (n *node) Getattr(ctx context.Context, f gofs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	ctx = detach(ctx)
	p := n.rel()
	if h, ok := f.(*handle); ok && h.of.spill != nil {
		p = h.of.path()
	}
	fi, err := n.m.stat(ctx, p)
	if err != nil {
		// A file open for writing that the workspace does not have yet (just created).
		if of := n.m.fileOf(n); of != nil {
			n.m.fill(n, p, newInfo(p), &out.Attr)
			out.Ino = n.StableAttr().Ino
			return 0
		}
		return n.m.errno(err)
	}
	n.m.fill(n, p, fi, &out.Attr)
	out.Ino = n.StableAttr().Ino
	return 0
}

func (n *node) Readdir(ctx context.Context) (gofs.DirStream, syscall.Errno) {
	ctx = detach(ctx)
	entries, err := n.m.ws.ListNames(ctx, n.rel())
	if err != nil {
		return nil, n.m.errno(err)
	}
	out := make([]fuse.DirEntry, 0, len(entries))
	for _, e := range entries {
		mode := uint32(syscall.S_IFREG)
		if e.Type == llmfs.TypeDirectory {
			mode = syscall.S_IFDIR
		}
		de := fuse.DirEntry{Name: e.Name, Mode: mode}
		if ch := n.GetChild(e.Name); ch != nil {
			de.Ino = ch.StableAttr().Ino
		}
		out = append(out, de)
	}
	return gofs.NewListDirStream(out), 0
}

func (n *node) Statfs(ctx context.Context, out *fuse.StatfsOut) syscall.Errno {
	ctx = detach(ctx)
	const blocks = 1 << 30 // 4 TiB of 4 KiB blocks: the workspace's quota, not a disk, bounds it
	out.Bsize, out.Frsize, out.NameLen = 4096, 4096, 255
	out.Blocks, out.Bfree, out.Bavail = blocks, blocks, blocks
	out.Files, out.Ffree = 1<<32, 1<<32
	if q := n.m.ws.Settings().Quota; q.MaxBytes > 0 {
		used, files, err := n.m.ws.Usage(ctx)
		if err == nil {
			out.Blocks = uint64(q.MaxBytes / 4096)
			free := max(q.MaxBytes-used, 0) / 4096
			out.Bfree, out.Bavail = uint64(free), uint64(free)
			if q.MaxFiles > 0 {
				out.Files, out.Ffree = uint64(q.MaxFiles), uint64(max(q.MaxFiles-files, 0))
			}
		}
	}
	return 0
}

// newInfo describes a file that exists only in a write buffer so far.
type newInfo string

func (i newInfo) Name() string       { return path.Base(string(i)) }
func (i newInfo) Size() int64        { return 0 }
func (i newInfo) Mode() fs.FileMode  { return 0o644 }
func (i newInfo) ModTime() time.Time { return time.Now() }
func (i newInfo) IsDir() bool        { return false }
func (i newInfo) Sys() any           { return nil }
