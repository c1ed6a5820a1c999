package nfs

import (
	"context"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/llmfs/llmfs/mount"
)

// Files written through NFS. A WRITE opens the file, writes and closes it; the server
// keeps the file's [mount.Handle] (its spill file) open across WRITEs and commits it once
// no WRITE came for a while, so that the workspace sees one write per file.

// pathKey is the [mount.Key] of a file the NFS face holds open. A held file is committed
// and closed before its path is renamed or removed, so its path never changes.
type pathKey struct{ p string }

func (k *pathKey) Rel() string { return k.p }

// heldFile is a file open for writing between WRITEs.
type heldFile struct {
	key  *pathKey
	h    *mount.Handle
	refs int       // billy files using it now
	last time.Time // of the last use
}

// held is the NFS face's files open for writing, by path.
type held struct {
	core  *mount.Core
	mu    sync.Mutex
	files map[string]*heldFile
}

func newHeld(core *mount.Core) *held { return &held{core: core, files: map[string]*heldFile{}} }

// acquire returns the held file at p, opened for actor with flags when it is not open.
func (hd *held) acquire(ctx context.Context, p, actor string, flags int) (*heldFile, error) {
	hd.mu.Lock()
	defer hd.mu.Unlock()
	if hf := hd.files[p]; hf != nil {
		hf.refs++
		return hf, nil
	}
	k := &pathKey{p}
	h, err := hd.core.Open(ctx, k, actor, flags&^(os.O_TRUNC|os.O_APPEND|os.O_CREATE|os.O_EXCL)|os.O_RDWR)
	if err != nil {
		return nil, err
	}
	hf := &heldFile{key: k, h: h, refs: 1}
	hd.files[p] = hf
	return hf, nil
}

// at returns the held file at p, or nil.
func (hd *held) at(p string) *heldFile {
	hd.mu.Lock()
	defer hd.mu.Unlock()
	return hd.files[p]
}

// done ends one use of hf.
func (hd *held) done(hf *heldFile) {
	hd.mu.Lock()
	hf.refs--
	hf.last = time.Now()
	hd.mu.Unlock()
}

// closeIdle commits and closes the files unused for idle.
func (hd *held) closeIdle(idle time.Duration) {
	hd.closeWhere(func(p string, hf *heldFile) bool { return hf.refs == 0 && time.Since(hf.last) >= idle })
}

// closeAll commits and closes every held file.
func (hd *held) closeAll() { hd.closeWhere(func(string, *heldFile) bool { return true }) }

// closeUnder commits and closes the held files at p and below it: before p is renamed
// or removed. It returns the first refusal of a commit.
func (hd *held) closeUnder(p string) error {
	return hd.closeWhere(func(q string, _ *heldFile) bool {
		return p == "." || q == p || len(q) > len(p) && q[:len(p)+1] == p+"/"
	})
}

// closeWhere commits and closes the held files pick picks; a refusal is logged, and the
// first returned.
func (hd *held) closeWhere(pick func(string, *heldFile) bool) error {
	hd.mu.Lock()
	var out []*heldFile
	for p, hf := range hd.files {
		if pick(p, hf) {
			out = append(out, hf)
			delete(hd.files, p)
		}
	}
	hd.mu.Unlock()
	ctx := context.Background()
	var first error
	for _, hf := range out {
		if err := hf.h.Flush(ctx); err != nil {
			hd.core.Logf("llmfs nfs: %s: %v", hf.key.p, err)
			if first == nil {
				first = err
			}
		}
		hf.h.Release(ctx)
	}
	return first
}

// file is a billy.File: one use of an open file by one NFS request.
type file struct {
	fs    *fsys
	name  string
	h     *mount.Handle
	hf    *heldFile // a file held open for writing; nil: h is this file's own
	flush bool      // commit at Close (a file CREATE made: it exists once the RPC returns)
	pos   int64
}

func (f *file) Name() string { return f.name }

func (f *file) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.pos)
	f.pos += int64(n)
	return n, err
}

func (f *file) ReadAt(p []byte, off int64) (int, error) {
	n, _, err := f.h.Read(context.Background(), p, off, false)
	if err != nil {
		return n, f.fs.pathErr("read", f.name, err)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *file) Write(p []byte) (int, error) {
	n, err := f.h.Write(p, f.pos)
	f.pos += int64(n)
	if err != nil {
		return n, f.fs.pathErr("write", f.name, err)
	}
	return n, nil
}

func (f *file) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		f.pos = off
	case io.SeekCurrent:
		f.pos += off
	default:
		return f.pos, f.fs.pathErr("seek", f.name, syscall.EINVAL)
	}
	return f.pos, nil
}

func (f *file) Truncate(size int64) error {
	k := mount.Key(&pathKey{f.name})
	if f.hf != nil {
		k = f.hf.key
	}
	return f.fs.pathErr("truncate", f.name, f.fs.s.core.Truncate(context.Background(), k, f.fs.actor, size))
}

// Close ends the request's use: a held file stays open for the next WRITE.
func (f *file) Close() error {
	if f.hf != nil {
		f.fs.s.files.done(f.hf)
		return nil
	}
	var err error
	if f.flush {
		err = f.h.Flush(context.Background())
	}
	f.h.Release(context.Background())
	return f.fs.pathErr("close", f.name, err)
}

// Lock and Unlock: NFSv3 locks are the client's own (mount with nolocks,locallocks).
func (f *file) Lock() error   { return nil }
func (f *file) Unlock() error { return nil }
