//go:build js && wasm

// What the conformance suite cannot see: chunking, quota errors, cancellation, closing,
// schema upgrades by another connection, metadata, and the core on top.
package idb_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/idb"
)

func write(t *testing.T, s store.Store, name string, data []byte) {
	t.Helper()
	if _, err := s.WriteFile(ctx, name, bytes.NewReader(data), store.WriteOptions{}); err != nil {
		t.Fatalf("WriteFile(%q): %v", name, err)
	}
}

func read(t *testing.T, s store.Store, name string) []byte {
	t.Helper()
	f, err := s.Open(ctx, name)
	if err != nil {
		t.Fatalf("Open(%q): %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chunkCount counts the records in the chunks object store, read with raw IndexedDB.
func chunkCount(t *testing.T, dbName string) int {
	t.Helper()
	done := make(chan int, 1)
	req := js.Global().Get("indexedDB").Call("open", dbName)
	var onOpen, onCount js.Func
	onOpen = js.FuncOf(func(this js.Value, args []js.Value) any {
		db := req.Get("result")
		c := db.Call("transaction", "chunks").Call("objectStore", "chunks").Call("count")
		c.Set("onsuccess", onCount)
		return nil
	})
	onCount = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- args[0].Get("target").Get("result").Int()
		req.Get("result").Call("close")
		return nil
	})
	defer onOpen.Release()
	defer onCount.Release()
	req.Set("onsuccess", onOpen)
	return <-done
}

// TestChunks checks that content is split in ChunkSize records, survives reopening, and
// that replacing, appending to and removing a file leaves no stray chunk behind.
func TestChunks(t *testing.T) {
	s := open(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), (2*idb.ChunkSize+idb.ChunkSize/2)/16)
	write(t, s, "big", big)
	if n := chunkCount(t, s.Name()); n != 3 {
		t.Errorf("a file of 2.5 chunks is stored in %d records, want 3", n)
	}
	s2, err := idb.Open(ctx, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, s2, "big"); !bytes.Equal(got, big) {
		t.Errorf("read back through a second connection: %d bytes, want %d", len(got), len(big))
	}
	s2.Close()
	if _, err := s.WriteFile(ctx, "big", strings.NewReader("tail"), store.WriteOptions{Mode: store.Append}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, "big"); !bytes.Equal(got, append(big, "tail"...)) {
		t.Errorf("after append: %d bytes", len(got))
	}
	write(t, s, "big", []byte("small"))
	if n := chunkCount(t, s.Name()); n != 1 {
		t.Errorf("after replacing with 5 bytes: %d chunk records, want 1", n)
	}
	if err := s.Remove(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	if n := chunkCount(t, s.Name()); n != 0 {
		t.Errorf("after remove: %d chunk records, want 0", n)
	}
}

// failPuts makes the chunks object store's put throw a QuotaExceededError DOMException
// from the nth call on, as a full disk does; it returns a function that undoes it.
func failPuts(n int) func() {
	proto := js.Global().Get("IDBObjectStore").Get("prototype")
	orig := proto.Get("put")
	wrap := js.Global().Get("Function").New("orig", "n", `
		let calls = 0;
		return function(...args) {
			if (this.name === "chunks" && ++calls >= n) {
				throw new DOMException("the quota has been exceeded", "QuotaExceededError");
			}
			return orig.apply(this, args);
		};`).Invoke(orig, n)
	proto.Set("put", wrap)
	return func() { proto.Set("put", orig) }
}

// TestQuotaExceeded checks that a QuotaExceededError in the middle of a write becomes
// store.ErrQuota (QUOTA_EXCEEDED in the core) and that nothing of the write is kept.
func TestQuotaExceeded(t *testing.T) {
	s := open(t)
	old := []byte("old content")
	write(t, s, "f", old)
	undo := failPuts(3) // the third chunk of the next write fails
	big := bytes.Repeat([]byte("x"), 4*idb.ChunkSize)
	_, err := s.WriteFile(ctx, "f", bytes.NewReader(big), store.WriteOptions{})
	_, err2 := s.WriteFile(ctx, "g", bytes.NewReader(big), store.WriteOptions{})
	undo()
	for _, err := range []error{err, err2} {
		if !errors.Is(err, store.ErrQuota) {
			t.Errorf("write over quota: %v, want store.ErrQuota", err)
		}
		var de *idb.DOMError
		if !errors.As(err, &de) || de.Name != "QuotaExceededError" {
			t.Errorf("write over quota: %v, want a DOMError named QuotaExceededError", err)
		}
	}
	if got := read(t, s, "f"); !bytes.Equal(got, old) {
		t.Errorf("after a failed replace: %q, want the old content", got)
	}
	if _, err := s.Stat(ctx, "g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after a failed create: Stat = %v, want fs.ErrNotExist", err)
	}
	if n := chunkCount(t, s.Name()); n != 1 {
		t.Errorf("%d chunk records after the failed writes, want 1 (half-written?)", n)
	}
	ws := llmfs.New(s, nil)
	undo = failPuts(1)
	_, err = ws.Write(ctx, "/h", string(big), llmfs.WriteOptions{})
	undo()
	if code := llmfs.CodeOf(err); code != llmfs.CodeQuotaExceeded {
		t.Errorf("workspace write over quota: code %q (%v), want %s", code, err, llmfs.CodeQuotaExceeded)
	}
}

// TestContextCancelled checks that a cancelled context stops an operation before it
// changes anything.
func TestContextCancelled(t *testing.T) {
	s := open(t)
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.WriteFile(c, "f", strings.NewReader("x"), store.WriteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("write with a cancelled context: %v", err)
	}
	if _, err := s.Stat(ctx, "f"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat after a cancelled write: %v", err)
	}
}

// TestClosed checks that operations on a closed database fail cleanly.
func TestClosed(t *testing.T) {
	s := open(t)
	s.Close()
	_, err := s.Stat(ctx, "f")
	if !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Stat after Close: %v, want fs.ErrClosed", err)
	}
}

// TestWorkspace runs the core over the store: read-before-edit and listing.
func TestWorkspace(t *testing.T) {
	s := open(t)
	ws := llmfs.New(s, &llmfs.Options{RequireRead: true})
	if err := s.Mkdir(ctx, "src"); err != nil {
		t.Fatal(err)
	}
	write(t, s, "src/a.txt", []byte("hello\nworld\n"))
	if _, err := ws.Edit(ctx, "/src/a.txt", "world", "there", false); llmfs.CodeOf(err) != llmfs.CodeFileNotRead {
		t.Errorf("edit before read: %v, want %s", err, llmfs.CodeFileNotRead)
	}
	if _, err := ws.Read(ctx, "/src/a.txt", llmfs.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Edit(ctx, "/src/a.txt", "world", "there", false); err != nil {
		t.Fatalf("edit after read: %v", err)
	}
	if got := string(read(t, s, "src/a.txt")); got != "hello\nthere\n" {
		t.Errorf("after edit: %q", got)
	}
}

// TestMeta checks the metadata records: they round-trip, "" removes, they survive a new
// connection, and they never show in the tree.
func TestMeta(t *testing.T) {
	s := open(t)
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("GetMeta of an unset key: %v", err)
	}
	for _, kv := range [][2]string{{"k", "v1"}, {"sysfiles:AGENT.md", "abc"}, {"k", "v2"}} {
		if err := s.SetMeta(ctx, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	s2, err := idb.Open(ctx, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if v, err := s2.GetMeta(ctx, "k"); v != "v2" || err != nil {
		t.Errorf("GetMeta(k) = %q, %v", v, err)
	}
	if err := s2.SetMeta(ctx, "k", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("GetMeta of a removed key: %v", err)
	}
	if v, _ := s.GetMeta(ctx, "sysfiles:AGENT.md"); v != "abc" {
		t.Errorf("removing one key lost another: %q", v)
	}
	if des, err := s.ReadDir(ctx, "."); err != nil || len(des) != 0 {
		t.Errorf("metadata shows in the tree: %v, %v", des, err)
	}
}

// TestVersionChange checks that an open store lets go when another connection deletes
// its database (as another tab upgrading or resetting it would), and fails cleanly after.
func TestVersionChange(t *testing.T) {
	s := open(t)
	write(t, s, "f", []byte("x"))
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := idb.DeleteDatabase(c, s.Name()); err != nil {
		t.Fatalf("DeleteDatabase with a store open on it: %v", err)
	}
	if _, err := s.Stat(ctx, "f"); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Stat after the database was deleted: %v, want fs.ErrClosed", err)
	}
	s2, err := idb.Open(ctx, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Stat(ctx, "f"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat in the new database: %v, want fs.ErrNotExist", err)
	}
}

// TestOpenCancelled checks that giving up on opening a database leaves nothing broken:
// the late connection is closed, and the database opens again.
func TestOpenCancelled(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := idb.Open(c, "llmfs-test-cancelled"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open with a cancelled context: %v", err)
	}
	s, err := idb.Open(ctx, "llmfs-test-cancelled")
	if err != nil {
		t.Fatalf("Open after a cancelled Open: %v", err)
	}
	write(t, s, "f", []byte("x"))
	s.Close()
	if err := idb.DeleteDatabase(ctx, "llmfs-test-cancelled"); err != nil {
		t.Error(err)
	}
}
