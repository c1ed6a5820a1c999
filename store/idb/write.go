//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"syscall/js"
	"time"

	"github.com/llmfs/llmfs/store"
)

// The store's changes to its tree: writes, directories, removals and renames.

// WriteFile implements [store.Store]. The content is read from r before the transaction
// starts (reading r may block on anything), then checked and stored in one transaction.
func (s *Store) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	const op = "write"
	if !fs.ValidPath(name) {
		return 0, pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return 0, pathErr(op, name, store.ErrIsDir)
	}
	switch opts.Mode {
	case store.Replace, store.Append, store.Exclusive:
	default:
		return 0, pathErr(op, name, fs.ErrInvalid)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, pathErr(op, name, err)
	}
	written := int64(len(data))
	t, err := s.begin(ctx, op, name, "readwrite", nodesStore, chunksStore)
	if err != nil {
		return 0, err
	}
	ids := t.getChain(name)
	res, err := t.wait()
	if err != nil {
		return 0, t.fail(err)
	}
	old, err := resolve(op, name, pick(res, ids))
	if err != nil {
		return 0, t.fail(err)
	}
	if old != nil && old.dir {
		if opts.Mode == store.Exclusive {
			return 0, t.fail(pathErr(op, name, fs.ErrExist))
		}
		return 0, t.fail(pathErr(op, name, store.ErrIsDir))
	}
	if opts.IfMatch != "" && (old == nil || old.hash != opts.IfMatch) {
		return 0, t.fail(pathErr(op, name, store.ErrChanged))
	}
	switch {
	case opts.Mode == store.Exclusive && old != nil:
		return 0, t.fail(pathErr(op, name, fs.ErrExist))
	case opts.Mode == store.Replace && opts.IfAbsent && old != nil:
		return 0, t.fail(pathErr(op, name, store.ErrChanged))
	case opts.Mode == store.Append && old != nil && old.size > 0:
		prev, err := t.content(op, old)
		if err != nil {
			return 0, t.fail(err)
		}
		data = append(prev, data...)
	}
	// From here on only writes, all issued now, in this one run.
	n := &node{path: name, parent: parentOf(name), size: int64(len(data)), mtime: time.Now(),
		hash: store.Hash(data), blob: newBlobID()}
	t.request(nodesStore, "put", n.record())
	for i := 0; i*ChunkSize < len(data); i++ {
		chunk := data[i*ChunkSize : min(len(data), (i+1)*ChunkSize)]
		buf := js.Global().Get("Uint8Array").New(len(chunk))
		js.CopyBytesToJS(buf, chunk)
		t.request(chunksStore, "put", buf, []any{n.blob, i})
	}
	if old != nil {
		t.request(chunksStore, "delete", chunkRange(old.blob))
	}
	if err := t.commit(); err != nil {
		return 0, err
	}
	return written, nil
}

// Mkdir implements [store.Store].
func (s *Store) Mkdir(ctx context.Context, name string) error {
	const op = "mkdir"
	if !fs.ValidPath(name) {
		return pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return pathErr(op, name, fs.ErrExist)
	}
	t, err := s.begin(ctx, op, name, "readwrite", nodesStore)
	if err != nil {
		return err
	}
	ids := t.getChain(name)
	res, err := t.wait()
	if err != nil {
		return t.fail(err)
	}
	old, err := resolve(op, name, pick(res, ids))
	if err != nil {
		return t.fail(err)
	}
	if old != nil {
		return t.fail(pathErr(op, name, fs.ErrExist))
	}
	n := &node{path: name, parent: parentOf(name), dir: true, mtime: time.Now()}
	t.request(nodesStore, "add", n.record())
	return t.commit()
}

// Remove implements [store.Store].
func (s *Store) Remove(ctx context.Context, name string) error {
	const op = "remove"
	if !fs.ValidPath(name) {
		return pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return pathErr(op, name, fs.ErrInvalid)
	}
	t, err := s.begin(ctx, op, name, "readwrite", nodesStore, chunksStore)
	if err != nil {
		return err
	}
	ids := t.getChain(name)
	children := t.indexRequest(nodesStore, parentIndex, "count", name)
	res, err := t.wait()
	if err != nil {
		return t.fail(err)
	}
	n, err := resolve(op, name, pick(res, ids))
	switch {
	case err != nil:
		return t.fail(err)
	case n == nil:
		return t.fail(pathErr(op, name, fs.ErrNotExist))
	case n.dir && res[children].Int() > 0:
		return t.fail(pathErr(op, name, store.ErrNotEmpty))
	}
	t.request(nodesStore, "delete", name)
	if !n.dir {
		t.request(chunksStore, "delete", chunkRange(n.blob))
	}
	return t.commit()
}

// RemoveIf implements [store.ConditionalRemover]: the check and the removal are one
// IndexedDB transaction.
func (s *Store) RemoveIf(ctx context.Context, name, hash string) error {
	const op = "remove"
	if !fs.ValidPath(name) {
		return pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return pathErr(op, name, store.ErrIsDir)
	}
	t, err := s.begin(ctx, op, name, "readwrite", nodesStore, chunksStore)
	if err != nil {
		return err
	}
	ids := t.getChain(name)
	res, err := t.wait()
	if err != nil {
		return t.fail(err)
	}
	n, err := resolve(op, name, pick(res, ids))
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNotDir):
		return t.fail(pathErr(op, name, store.ErrChanged))
	case err != nil:
		return t.fail(err)
	case n == nil || (!n.dir && n.hash != hash):
		return t.fail(pathErr(op, name, store.ErrChanged))
	case n.dir:
		return t.fail(pathErr(op, name, store.ErrIsDir))
	}
	t.request(nodesStore, "delete", name)
	t.request(chunksStore, "delete", chunkRange(n.blob))
	return t.commit()
}

// Rename implements [store.Store]. A directory moves with everything below it in the same
// transaction; content chunks never move, since they are keyed by blob, not by name.
func (s *Store) Rename(ctx context.Context, oldname, newname string) error {
	const op = "rename"
	for _, name := range []string{oldname, newname} {
		if !fs.ValidPath(name) {
			return pathErr(op, name, store.ErrInvalidName)
		}
		if name == "." {
			return pathErr(op, name, fs.ErrInvalid)
		}
	}
	t, err := s.begin(ctx, op, oldname, "readwrite", nodesStore)
	if err != nil {
		return err
	}
	oldIDs := t.getChain(oldname)
	newIDs := t.getChain(newname)
	res, err := t.wait()
	if err != nil {
		return t.fail(err)
	}
	n, err := resolve(op, oldname, pick(res, oldIDs))
	if err == nil && n == nil {
		err = pathErr(op, oldname, fs.ErrNotExist)
	}
	if err != nil {
		return t.fail(err)
	}
	if n.dir && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
		return t.fail(pathErr(op, newname, fs.ErrInvalid))
	}
	dst, err := resolve(op, newname, pick(res, newIDs))
	if err != nil {
		return t.fail(err)
	}
	if dst != nil {
		return t.fail(pathErr(op, newname, fs.ErrExist))
	}
	var moved []js.Value
	if n.dir {
		id := t.request(nodesStore, "getAll", below(oldname))
		res, err := t.wait()
		if err != nil {
			return t.fail(err)
		}
		for i := range res[id].Length() {
			moved = append(moved, res[id].Index(i))
		}
	}
	// Only writes from here on.
	t.request(nodesStore, "delete", oldname)
	n.path, n.parent = newname, parentOf(newname)
	t.request(nodesStore, "add", n.record())
	for _, r := range moved {
		d := nodeOf(r)
		t.request(nodesStore, "delete", d.path)
		d.path = newname + strings.TrimPrefix(d.path, oldname)
		d.parent = parentOf(d.path)
		t.request(nodesStore, "add", d.record())
	}
	return t.commit()
}
