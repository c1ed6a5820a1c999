//go:build linux

package mount

import (
	"context"
	"io/fs"
	"os"
	"syscall"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// node is a file or directory of the FUSE face. Its path is where the kernel's tree puts
// it, so a rename moves it with no bookkeeping here.
type node struct {
	gofs.Inode
	m    *fuseFS
	read readKey // its file as the last read-only open saw it (passthrough.go)
}

var (
	_ gofs.NodeLookuper  = (*node)(nil)
	_ gofs.NodeGetattrer = (*node)(nil)
	_ gofs.NodeSetattrer = (*node)(nil)
	_ gofs.NodeReaddirer = (*node)(nil)
	_ gofs.NodeStatfser  = (*node)(nil)
)

// Rel is the node's path relative to the root ("." for the root): its [Key].
func (n *node) Rel() string {
	p := n.Path(nil)
	if p == "" {
		return "."
	}
	return p
}

// fill sets out from fi and what the session knows better (modes, times, open buffers).
func (m *fuseFS) fill(n *node, p string, fi fs.FileInfo, out *fuse.Attr) {
	var k Key
	if n != nil {
		k = n
	}
	a := m.Attr(k, p, fi)
	typ := uint32(syscall.S_IFREG)
	out.Size, out.Nlink = uint64(a.Size), 1
	switch {
	case a.Link:
		typ = syscall.S_IFLNK
	case a.Dir:
		typ = syscall.S_IFDIR
		out.Size, out.Nlink = 4096, 2
	}
	out.Mode = typ | a.Perm
	out.SetTimes(nil, &a.Mtime, &a.Mtime)
	out.Blocks = (out.Size + 511) / 512
	out.Blksize = 4096
	out.Uid = uint32(os.Getuid())
	out.Gid = uint32(os.Getgid())
}

// child returns the inode of name under n, a directory or a file, reusing the one the
// tree has when it is of the same kind.
func (n *node) child(ctx context.Context, name string, dir bool) *gofs.Inode {
	mode := uint32(syscall.S_IFREG)
	if dir {
		mode = syscall.S_IFDIR
	}
	return n.childMode(ctx, name, mode)
}

// childMode is child for an inode of file type mode (S_IFREG, S_IFDIR or S_IFLNK).
func (n *node) childMode(ctx context.Context, name string, mode uint32) *gofs.Inode {
	if ch := n.GetChild(name); ch != nil && ch.StableAttr().Mode == mode {
		return ch
	}
	return n.NewInode(ctx, &node{m: n.m}, gofs.StableAttr{Mode: mode})
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*gofs.Inode, syscall.Errno) {
	ctx = detach(ctx)
	p := Join(n.Rel(), name)
	fi, k, err := n.m.Lookup(ctx, p)
	if err != nil {
		return nil, n.m.Errno(err)
	}
	if on, ok := k.(*node); ok {
		n.m.fill(on, p, fi, &out.Attr)
		out.Ino = on.StableAttr().Ino
		return &on.Inode, 0
	}
	ch := n.childMode(ctx, name, fileType(fi))
	n.m.fill(ch.Operations().(*node), p, fi, &out.Attr)
	out.Ino = ch.StableAttr().Ino
	return ch, 0
}

func (n *node) Getattr(ctx context.Context, f gofs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	ctx = detach(ctx)
	p := n.Rel()
	if h, ok := f.(*handle); ok && h.Buffered() {
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
		return n.m.Errno(err)
	}
	n.m.fill(n, p, fi, &out.Attr)
	out.Ino = n.StableAttr().Ino
	return 0
}

func (n *node) Readdir(ctx context.Context) (gofs.DirStream, syscall.Errno) {
	ctx = detach(ctx)
	entries, err := n.m.ListNames(ctx, n.Rel())
	if err != nil {
		return nil, n.m.Errno(err)
	}
	out := make([]fuse.DirEntry, 0, len(entries))
	for _, e := range entries {
		mode := uint32(syscall.S_IFREG)
		switch e.Type {
		case fs.ModeDir:
			mode = syscall.S_IFDIR
		case fs.ModeSymlink:
			mode = syscall.S_IFLNK
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
	s := n.m.Space(detach(ctx))
	out.Bsize, out.Frsize, out.NameLen = 4096, 4096, 255
	out.Blocks, out.Bfree, out.Bavail = uint64(s.Bytes/4096), uint64(s.FreeBytes/4096), uint64(s.FreeBytes/4096)
	out.Files, out.Ffree = uint64(s.Files), uint64(s.FreeFiles)
	return 0
}
