//go:build !js && !wasip1

package osdir

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// Known files. The journal snapshots a file before each change to it; most often the file
// holds what the journal's own last write to it left, whose version and content the
// journal has just recorded. So a journaled write that replaces a file remembers the
// stamp of the file it put in place (device, inode, size, modification and change times,
// taken with fstat on the new file once it has its name) beside that content, and the
// next snapshot, whose lstat finds the same stamp, answers from memory: no open, fstat,
// read and close.
//
// Any change to the file since, by anyone, changes its stamp: a replacement gives a new
// inode; a write in place, a truncation or a chmod moves the change time. Linux since
// 6.13 gives a change made right after the stamp was read a change time finer than the
// clock's tick (multigrain timestamps), so a change within the same tick shows too; on
// a file system or kernel with coarse change times, a change of the same size in place
// within a tick of the journal's write could go unseen, and its before version be
// recorded as the journal's own, the same race a write by another process during the
// change set already has (see [hostJournal.Apply]). The memory is this process's only:
// after a crash nothing is known, and every snapshot reads the file. The content is the
// slice the write was given, shared: a snapshot's callers only read what it returns.

// knownMax bounds the content the known files hold in all: past it they are forgotten.
const knownMax = 8 << 20

// knownFile is what a journaled write left in a file.
type knownFile struct {
	stamp fileStamp
	v     store.Version
	data  []byte
}

// knownFiles maps store names to what the journal's last write to each left.
type knownFiles struct {
	mu    sync.Mutex
	m     map[string]knownFile
	bytes int
}

// put remembers that name, stamped st, holds data of version v.
func (k *knownFiles) put(name string, st fileStamp, v store.Version, data []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.m[name]; ok {
		k.bytes -= len(old.data)
	}
	if k.m == nil || k.bytes+len(data) > knownMax {
		k.m, k.bytes = map[string]knownFile{}, 0
	}
	k.m[name] = knownFile{stamp: st, v: v, data: data}
	k.bytes += len(data)
}

// get returns what name holds if st is the stamp it had when remembered.
func (k *knownFiles) get(name string, st fileStamp) (knownFile, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, ok := k.m[name]
	if !ok || f.stamp != st {
		return knownFile{}, false
	}
	return f, true
}

// forget drops what is known of name.
func (k *knownFiles) forget(name string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if old, ok := k.m[name]; ok {
		k.bytes -= len(old.data)
		delete(k.m, name)
	}
}

// WriteFile writes as the store does; a write that replaces the file with content the
// change set recorded, byte for byte, leaves the new file's stamp and that content known
// (see above).
func (tx *hostTx) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	s := tx.Store
	s.known.forget(name)
	v, data, ok := tx.recorded(name)
	if !ok || opts.Mode == store.Append {
		// An append writes the old content followed by r: not what was planned if the
		// file changed meanwhile.
		return s.WriteFile(ctx, name, r, opts)
	}
	m := &matchReader{r: r, want: data, same: true}
	var st fileStamp
	n, err := s.writeFile(ctx, name, m, opts, &st)
	if err == nil && st != (fileStamp{}) && m.same && m.off == len(data) {
		s.known.put(name, st, v, data)
	}
	return n, err
}

// matchReader reads r, and tells whether what it read is want.
type matchReader struct {
	r    io.Reader
	want []byte
	off  int
	same bool
}

func (m *matchReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.check(p[:n])
	return n, err
}

// WriteTo passes on r's WriteTo, if it has one: the write then takes no buffer of its own
// (a bytes.Reader writes its content in one call).
func (m *matchReader) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := m.r.(io.WriterTo); ok {
		return wt.WriteTo(matchWriter{w, m})
	}
	return io.Copy(w, struct{ io.Reader }{m})
}

// matchWriter writes to w, and tells m whether what it wrote is m.want.
type matchWriter struct {
	w io.Writer
	m *matchReader
}

func (mw matchWriter) Write(p []byte) (int, error) {
	n, err := mw.w.Write(p)
	mw.m.check(p[:n])
	return n, err
}

// check notes that p came next.
func (m *matchReader) check(p []byte) {
	if m.same && (m.off+len(p) > len(m.want) || !bytes.Equal(p, m.want[m.off:m.off+len(p)])) {
		m.same = false
	}
	m.off += len(p)
}

// knownFileMax is the largest content a write leaves known.
const knownFileMax = 1 << 20

// recorded returns the after version of the last change Add recorded to name, with its
// content when the record holds it (as one of the blobs of [hostTx.Add]).
func (tx *hostTx) recorded(name string) (store.Version, []byte, bool) {
	var c *store.Change
	for i := len(tx.added) - 1; i >= 0 && c == nil; i-- {
		if tx.added[i].Path == name {
			c = tx.added[i]
		}
	}
	if c == nil || c.After.Kind != store.File || c.After.Size > knownFileMax {
		return store.Version{}, nil, false
	}
	for _, b := range tx.blobs {
		if int64(len(b)) == c.After.Size && store.Hash(b) == c.After.Hash {
			return c.After, b, true
		}
	}
	return store.Version{}, nil, false
}
