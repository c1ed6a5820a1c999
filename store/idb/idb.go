//go:build js && wasm

// Package idb is a [store.Store] on IndexedDB, for llmfs running in a browser or in a Web
// Worker (GOOS=js GOARCH=wasm).
//
// # Layout
//
// A database holds two object stores:
//
//   - "nodes": one record per file or directory, keyed by its store name ("a/b.txt"). A
//     record holds the parent's name ("." at the top), whether it is a directory, and for a
//     file its size, its modification time, the hex SHA-256 of its content (for
//     [store.WriteOptions.IfMatch]) and the id of the blob holding its content. The index
//     "parent" makes listing a directory one range query. The root "." is implicit.
//   - "chunks": file content in records of at most [ChunkSize] bytes, keyed by
//     [blob id, chunk number]. Every write stores a new blob and deletes the old one in the
//     same transaction, so a rename never copies content and a file's chunks are read or
//     deleted with one key range.
//   - "meta": small key/value records about the store, outside the tree (GetMeta and
//     SetMeta, the store.Metadata capability that package sysfiles uses to remember what
//     it generated).
//
// # One transaction per operation, and auto-commit
//
// Every method is one IndexedDB transaction, so each is atomic, and read-write
// transactions (which all cover both object stores) are serialized by the browser: an
// IfMatch check and the write it guards cannot be separated by another writer, even one
// in another tab.
//
// IndexedDB commits a transaction on its own as soon as it has no pending request at the
// end of a task: a transaction is active only during the task that created it and while
// the success and error events of its own requests are dispatched. A request made at any
// other time throws TransactionInactiveError, and whatever the transaction did so far is
// committed. So an operation must make its next request from inside the dispatch of the
// previous request's event, and must never wait on anything else in between.
//
// Go on js/wasm runs every goroutine on the one JavaScript thread. When JavaScript calls a
// function made with [js.FuncOf], the runtime runs it and then keeps running every
// goroutine that became runnable, and only returns to JavaScript when all of them are
// blocked. This package relies on exactly that: the one event handler of a transaction
// queues the event and wakes the operation's goroutine, which therefore runs, and makes
// its next requests, while the event is still being dispatched and the transaction is
// still active. The rules that keep this true are:
//
//   - between creating a transaction and its end, an operation blocks only on that
//     transaction's own events (see [txn.wait]): no mutex that another transaction's
//     goroutine could hold, no timer, no channel fed by anything else, no I/O. The
//     caller's [io.Reader] is drained before the transaction starts, and hashing happens
//     synchronously inside an event;
//   - every write of an operation is issued in one synchronous run after its last read,
//     and the operation then waits for the transaction's complete event: a write is
//     reported done only at oncomplete, when it is durable in the browser's sense;
//   - a failed request (a ConstraintError, a QuotaExceededError) aborts the whole
//     transaction, so nothing is ever half-written; a request that throws synchronously
//     makes the operation abort the transaction itself.
//
// If the context ends while an operation waits, the transaction is aborted (when it has
// not finished yet) and the context's error returned.
//
// # Errors
//
// Errors are *[fs.PathError] values. JavaScript exceptions and IndexedDB errors become a
// [*DOMError] carrying the DOMException name, which unwraps to the matching sentinel:
// ConstraintError to [fs.ErrExist], QuotaExceededError to [store.ErrQuota] (the llmfs core
// turns it into QUOTA_EXCEEDED), InvalidStateError on a closed database to [fs.ErrClosed].
//
// # Reading
//
// [Store.Open] reads the whole content in its transaction, so an open file keeps reading
// what it was opened on even if the file is replaced meanwhile; files in a browser are
// expected to be small enough for that (the llmfs core caps edits at 64 MiB anyway).
package idb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/llmfs/llmfs/store"
)

// ChunkSize is the largest content record, in bytes.
const ChunkSize = 1 << 20

// Object store and index names, and the schema version.
const (
	nodesStore  = "nodes"
	chunksStore = "chunks"
	metaStore   = "meta"
	parentIndex = "parent"
	version     = 3 // 2 added "meta", 3 the journal (journal.go)
)

// Store is a [store.Store] in one IndexedDB database. It is safe for concurrent use.
type Store struct {
	db   js.Value
	name string
	// handler receives the events of every request and transaction of this store and
	// routes them, by the ids set on the request and transaction objects, to txns.
	handler js.Func
	mu      sync.Mutex // guards txns and lastID; never held while waiting
	txns    map[int]*txn
	lastID  int
	journal idbJournal // see Journal
}

var (
	_ store.Store              = (*Store)(nil)
	_ store.ConditionalRemover = (*Store)(nil)
)

// Open opens (creating it if needed) the IndexedDB database name in the current
// JavaScript realm (a page or a worker).
func Open(ctx context.Context, name string) (*Store, error) {
	factory := js.Global().Get("indexedDB")
	if factory.IsUndefined() || factory.IsNull() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("idb: IndexedDB is not available here")}
	}
	var req js.Value
	if err := try(func() { req = factory.Call("open", name, version) }); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	type result struct {
		db  js.Value
		err error
	}
	done := make(chan result, 1)
	var upgradeErr error
	var upgrade, success, failure js.Func
	// The callbacks are released only once the request has settled, since a released
	// function called from JavaScript would crash the program.
	release := func() {
		upgrade.Release()
		success.Release()
		failure.Release()
	}
	// The schema must be created during the upgradeneeded event itself, in the
	// versionchange transaction it opens, so the handler does it directly. If that fails,
	// aborting makes the request fail, and failure reports why.
	upgrade = js.FuncOf(func(this js.Value, args []js.Value) any {
		db := req.Get("result")
		upgradeErr = try(func() {
			if !db.Get("objectStoreNames").Call("contains", nodesStore).Bool() {
				nodes := db.Call("createObjectStore", nodesStore, map[string]any{"keyPath": "path"})
				nodes.Call("createIndex", parentIndex, "parent")
			}
			for _, name := range []string{chunksStore, metaStore, journalStore, blobsStore, checkpointsStore} {
				if !db.Get("objectStoreNames").Call("contains", name).Bool() {
					db.Call("createObjectStore", name)
				}
			}
		})
		if upgradeErr != nil {
			try(func() { req.Get("transaction").Call("abort") })
		}
		return nil
	})
	success = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{db: req.Get("result")}
		return nil
	})
	failure = js.FuncOf(func(this js.Value, args []js.Value) any {
		err := upgradeErr
		if err == nil {
			err = domError(req.Get("error"))
		}
		done <- result{err: err}
		return nil
	})
	req.Set("onupgradeneeded", upgrade)
	req.Set("onsuccess", success)
	req.Set("onerror", failure)
	select {
	case r := <-done:
		release()
		if r.err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: r.err}
		}
		s := &Store{db: r.db, name: name, txns: map[int]*txn{}}
		s.handler = js.FuncOf(s.handle)
		// Another tab upgrading the schema asks us to let go; closing is the polite answer,
		// after which operations fail with fs.ErrClosed.
		r.db.Set("onversionchange", js.FuncOf(func(this js.Value, args []js.Value) any {
			r.db.Call("close")
			return nil
		}))
		return s, nil
	case <-ctx.Done():
		// The open request cannot be cancelled; close the database if it arrives late.
		go func() {
			r := <-done
			release()
			if r.err == nil {
				r.db.Call("close")
			}
		}()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ctx.Err()}
	}
}

// Close closes the database connection. Operations after Close fail with [fs.ErrClosed].
// Transactions still running finish first. The event handler is deliberately not
// released: their events may still arrive, and calling a released Go function from
// JavaScript would crash the program.
func (s *Store) Close() error {
	return try(func() { s.db.Call("close") })
}

// Name returns the database name.
func (s *Store) Name() string { return s.name }

// DeleteDatabase deletes the IndexedDB database name and everything in it. Open
// connections to it must be closed first, or the deletion waits for them.
func DeleteDatabase(ctx context.Context, name string) error {
	var req js.Value
	if err := try(func() { req = js.Global().Get("indexedDB").Call("deleteDatabase", name) }); err != nil {
		return &fs.PathError{Op: "delete", Path: name, Err: err}
	}
	done := make(chan error, 1)
	ok := js.FuncOf(func(this js.Value, args []js.Value) any { done <- nil; return nil })
	fail := js.FuncOf(func(this js.Value, args []js.Value) any { done <- domError(req.Get("error")); return nil })
	release := func() {
		ok.Release()
		fail.Release()
	}
	req.Set("onsuccess", ok)
	req.Set("onerror", fail)
	select {
	case err := <-done:
		release()
		if err != nil {
			return &fs.PathError{Op: "delete", Path: name, Err: err}
		}
		return nil
	case <-ctx.Done():
		// The deletion goes on (it waits for open connections to close); release the
		// callbacks once it settles.
		go func() {
			<-done
			release()
		}()
		return &fs.PathError{Op: "delete", Path: name, Err: ctx.Err()}
	}
}

// node is the Go form of a "nodes" record.
type node struct {
	path   string
	parent string
	dir    bool
	size   int64
	mtime  time.Time
	hash   string
	blob   string
}

func (n *node) record() map[string]any {
	return map[string]any{
		"path":   n.path,
		"parent": n.parent,
		"dir":    n.dir,
		"size":   n.size,
		"mtime":  float64(n.mtime.UnixMilli()),
		"hash":   n.hash,
		"blob":   n.blob,
	}
}

// nodeOf decodes a record; it returns nil for undefined (a get that found nothing).
func nodeOf(v js.Value) *node {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	return &node{
		path:   v.Get("path").String(),
		parent: v.Get("parent").String(),
		dir:    v.Get("dir").Bool(),
		size:   int64(v.Get("size").Float()),
		mtime:  time.UnixMilli(int64(v.Get("mtime").Float())),
		hash:   v.Get("hash").String(),
		blob:   v.Get("blob").String(),
	}
}

func (n *node) info() *store.Entry {
	if n.dir {
		return store.NewDir(path.Base(n.path), n.mtime)
	}
	return store.NewFile(path.Base(n.path), n.size, n.mtime)
}

func rootInfo() *store.Entry { return store.NewDir(".", time.Now()) }

func pathErr(op, name string, err error) error { return &fs.PathError{Op: op, Path: name, Err: err} }

// parentOf returns the store name of name's directory.
func parentOf(name string) string {
	if dir := path.Dir(name); dir != "" {
		return dir
	}
	return "."
}

// chain returns the names from name's top-level ancestor down to name itself.
func chain(name string) []string {
	var out []string
	for i, c := range name {
		if c == '/' {
			out = append(out, name[:i])
		}
	}
	return append(out, name)
}

// resolve checks the records of chain(name) (in that order): every ancestor must be an
// existing directory. It returns the record of name itself, nil if it does not exist.
func resolve(op, name string, recs []js.Value) (*node, error) {
	for _, r := range recs[:len(recs)-1] {
		n := nodeOf(r)
		if n == nil {
			return nil, pathErr(op, name, fs.ErrNotExist)
		}
		if !n.dir {
			return nil, pathErr(op, name, store.ErrNotDir)
		}
	}
	return nodeOf(recs[len(recs)-1]), nil
}

// getChain issues one get per name of chain(name), returning their request numbers.
func (t *txn) getChain(name string) []int {
	names := chain(name)
	ids := make([]int, len(names))
	for i, n := range names {
		ids[i] = t.request(nodesStore, "get", n)
	}
	return ids
}

func pick(res map[int]js.Value, ids []int) []js.Value {
	out := make([]js.Value, len(ids))
	for i, id := range ids {
		out[i] = res[id]
	}
	return out
}

// chunkRange is the key range of all chunks of blob.
func chunkRange(blob string) js.Value {
	return js.Global().Get("IDBKeyRange").Call("bound",
		[]any{blob, 0}, []any{blob, js.Global().Get("Infinity")})
}

// below is the key range of every name strictly below directory dir: the names that
// start with dir + "/" ("0" is the character after "/").
func below(dir string) js.Value {
	return js.Global().Get("IDBKeyRange").Call("bound", dir+"/", dir+"0", false, true)
}

func newBlobID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Stat implements [store.Store].
func (s *Store) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	const op = "stat"
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return rootInfo(), nil
	}
	t, err := s.begin(ctx, op, name, "readonly", nodesStore)
	if err != nil {
		return nil, err
	}
	ids := t.getChain(name)
	res, err := t.wait()
	if err != nil {
		return nil, t.fail(err)
	}
	n, err := resolve(op, name, pick(res, ids))
	if err == nil && n == nil {
		err = pathErr(op, name, fs.ErrNotExist)
	}
	if err != nil {
		return nil, t.fail(err)
	}
	if err := t.end(); err != nil {
		return nil, err
	}
	return n.info(), nil
}

// ReadDir implements [store.Store]. The listing is one range query on the parent index.
func (s *Store) ReadDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	const op = "readdir"
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	t, err := s.begin(ctx, op, name, "readonly", nodesStore)
	if err != nil {
		return nil, err
	}
	var ids []int
	if name != "." {
		ids = t.getChain(name)
	}
	list := t.indexRequest(nodesStore, parentIndex, "getAll", name)
	res, err := t.wait()
	if err != nil {
		return nil, t.fail(err)
	}
	if name != "." {
		n, err := resolve(op, name, pick(res, ids))
		switch {
		case err != nil:
			return nil, t.fail(err)
		case n == nil:
			return nil, t.fail(pathErr(op, name, fs.ErrNotExist))
		case !n.dir:
			return nil, t.fail(pathErr(op, name, store.ErrNotDir))
		}
	}
	recs := res[list]
	out := make([]fs.DirEntry, recs.Length())
	for i := range out {
		out[i] = nodeOf(recs.Index(i)).info()
	}
	if err := t.end(); err != nil {
		return nil, err
	}
	// IndexedDB orders keys by UTF-16 code units; Go callers expect byte order.
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// Open implements [store.Store]. The file reads a snapshot taken in one transaction.
func (s *Store) Open(ctx context.Context, name string) (fs.File, error) {
	const op = "open"
	if !fs.ValidPath(name) {
		return nil, pathErr(op, name, store.ErrInvalidName)
	}
	if name == "." {
		return nil, pathErr(op, name, store.ErrIsDir)
	}
	t, err := s.begin(ctx, op, name, "readonly", nodesStore, chunksStore)
	if err != nil {
		return nil, err
	}
	n, err := t.lookup(op, name)
	if err != nil {
		return nil, t.fail(err)
	}
	if n.dir {
		return nil, t.fail(pathErr(op, name, store.ErrIsDir))
	}
	data, err := t.content(op, n)
	if err != nil {
		return nil, t.fail(err)
	}
	if err := t.end(); err != nil {
		return nil, err
	}
	return store.OpenBytes(n.info(), data), nil
}

// lookup returns the existing record of name, after checking its ancestors.
func (t *txn) lookup(op, name string) (*node, error) {
	ids := t.getChain(name)
	res, err := t.wait()
	if err != nil {
		return nil, err
	}
	n, err := resolve(op, name, pick(res, ids))
	if err == nil && n == nil {
		err = pathErr(op, name, fs.ErrNotExist)
	}
	return n, err
}

// content reads all chunks of file n with one range query.
func (t *txn) content(op string, n *node) ([]byte, error) {
	if n.size == 0 {
		return []byte{}, nil
	}
	id := t.request(chunksStore, "getAll", chunkRange(n.blob))
	res, err := t.wait()
	if err != nil {
		return nil, err
	}
	chunks := res[id]
	data := make([]byte, 0, n.size)
	for i := range chunks.Length() {
		c := chunks.Index(i)
		buf := make([]byte, c.Get("length").Int())
		js.CopyBytesToGo(buf, c)
		data = append(data, buf...)
	}
	if int64(len(data)) != n.size {
		return nil, pathErr(op, n.path, fmt.Errorf("idb: stored content is %d bytes, the record says %d", len(data), n.size))
	}
	return data, nil
}

// Usage returns the number of files and directories and the total size of the files.
func (s *Store) Usage(ctx context.Context) (files, dirs int, bytes int64, err error) {
	t, err := s.begin(ctx, "usage", ".", "readonly", nodesStore)
	if err != nil {
		return 0, 0, 0, err
	}
	id := t.request(nodesStore, "getAll")
	res, err := t.wait()
	if err != nil {
		return 0, 0, 0, t.fail(err)
	}
	all := res[id]
	for i := range all.Length() {
		n := nodeOf(all.Index(i))
		if n.dir {
			dirs++
		} else {
			files++
			bytes += n.size
		}
	}
	return files, dirs, bytes, t.end()
}

// GetMeta returns the metadata value of key, or an error wrapping [fs.ErrNotExist].
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	const op = "getmeta"
	t, err := s.begin(ctx, op, key, "readonly", metaStore)
	if err != nil {
		return "", err
	}
	id := t.request(metaStore, "get", key)
	res, err := t.wait()
	if err != nil {
		return "", t.fail(err)
	}
	v := res[id]
	t.end()
	if v.Type() != js.TypeString {
		return "", pathErr(op, key, fs.ErrNotExist)
	}
	return v.String(), nil
}

// SetMeta sets the metadata key to value; an empty value removes it.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	t, err := s.begin(ctx, "setmeta", key, "readwrite", metaStore)
	if err != nil {
		return err
	}
	if value == "" {
		t.request(metaStore, "delete", key)
	} else {
		t.request(metaStore, "put", value, key)
	}
	return t.commit()
}
