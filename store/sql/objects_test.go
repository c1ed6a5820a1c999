//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/blob"
	"github.com/llmfs/llmfs/store/blob/s3blob"
	"github.com/llmfs/llmfs/store/storetest"
)

// fakeS3 starts an S3-compatible server (gofakes3) on 127.0.0.1 and returns a store in a
// bucket of its own.
func fakeS3(t testing.TB) *s3blob.Store {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("llmfs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"} {
		t.Setenv(k, v)
	}
	s, err := s3blob.Open(context.Background(), "s3://llmfs/ws?region=us-east-1&endpoint="+srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformanceS3(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
			x := b.connect(t)
			x.SetBlobs(fakeS3(t))
			return newWorkspace(t, x, Quota{})
		}})
	})
}

func TestJournalS3(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		storetest.RunJournal(t, func(t *testing.T) store.Journaler {
			x := b.connect(t)
			x.SetBlobs(fakeS3(t))
			return newWorkspace(t, x, Quota{})
		})
	})
}

// countObjects returns the number of chunk objects in b.
func countObjects(t *testing.T, b blob.Store) int {
	t.Helper()
	n := 0
	if err := b.List(context.Background(), blob.ChunkPrefix, func(blob.Object) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// big returns n bytes of content that differs with seed, chunk by chunk.
func big(seed string, n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", seed, i)
	}
	return b.Bytes()[:n]
}

func readObj(t *testing.T, s *Store, name string) []byte {
	t.Helper()
	f, err := s.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return data
}

// TestObjectsFullChunks: full chunks go to the object store once each; a small file and a
// file's last, partial chunk stay in the database; a fork of many files adds no object.
func TestObjectsFullChunks(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := blob.NewMem()
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		content := big("a", 3*ChunkSize+100)
		for _, name := range []string{"big", "copy-of-big"} {
			if _, err := s.WriteFile(ctx, name, bytes.NewReader(content), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.WriteFile(ctx, "small", strings.NewReader("small\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := countObjects(t, objs); n != 3 {
			t.Fatalf("%d objects, want 3 (the full chunks, deduplicated)", n)
		}
		if got := readObj(t, s, "big"); !bytes.Equal(got, content) {
			t.Fatalf("big reads back %d bytes, not what was written", len(got))
		}
		// Appends: the last chunk fills up and goes to the object store.
		if _, err := s.WriteFile(ctx, "big", bytes.NewReader(big("b", ChunkSize)), store.WriteOptions{Mode: store.Append}); err != nil {
			t.Fatal(err)
		}
		want := append(bytes.Clone(content), big("b", ChunkSize)...)
		if got := readObj(t, s, "big"); !bytes.Equal(got, want) {
			t.Fatalf("big after an append reads back %d bytes, want %d", len(got), len(want))
		}
		for i := range 200 {
			if _, err := s.WriteFile(ctx, fmt.Sprintf("f%d", i), bytes.NewReader(big(fmt.Sprint(i), ChunkSize+1)), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		before := countObjects(t, objs)
		fork := testID(t) + "-fork"
		if err := x.Fork(ctx, s.ID(), fork); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { x.Remove(context.Background(), fork) })
		if after := countObjects(t, objs); after != before {
			t.Fatalf("the fork added %d objects", after-before)
		}
		fs, err := x.Workspace(ctx, fork, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := readObj(t, fs, "f7"); !bytes.Equal(got, big("7", ChunkSize+1)) {
			t.Fatal("the fork's file reads back other content")
		}
	})
}

// TestObjectsVerified: an object whose bytes do not match its hash is never returned.
func TestObjectsVerified(t *testing.T) {
	x := connectSQLite(t)
	objs := blob.NewMem()
	x.SetBlobs(objs)
	s := newWorkspace(t, x, Quota{})
	content := big("v", ChunkSize)
	if _, err := s.WriteFile(ctx, "f", bytes.NewReader(content), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	key := blob.ChunkKey(blob.Sum(content))
	objs.Delete(ctx, key)
	objs.PutIfAbsent(ctx, key, big("w", ChunkSize))
	f, err := s.Open(ctx, "f")
	if err == nil {
		_, err = io.ReadAll(f)
		f.Close()
	}
	if !errors.Is(err, blob.ErrCorrupt) {
		t.Fatalf("reading a corrupt object: %v, want blob.ErrCorrupt", err)
	}
}

// flaky is an object store whose puts are slow and fail now and then.
type flaky struct {
	blob.Store
	delay time.Duration
	n     atomic.Int64
	every int64 // every every-th put fails; 0: none
}

var errInjected = errors.New("injected object store failure")

func (f *flaky) PutIfAbsent(ctx context.Context, key string, data []byte) (bool, error) {
	if f.every > 0 && f.n.Add(1)%f.every == 0 {
		return false, errInjected
	}
	created, err := f.Store.PutIfAbsent(ctx, key, data)
	// Slow after the put as well: the window between an object's put and the commit of
	// the rows that refer to it is where a careless collector deletes it.
	time.Sleep(f.delay)
	return created, err
}

// TestObjectsPutFails: a write whose object cannot be put fails with the cause and leaves
// the file as it was, never half written.
func TestObjectsPutFails(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		x.SetBlobs(&flaky{Store: blob.NewMem(), every: 1})
		s := newWorkspace(t, x, Quota{})
		if _, err := s.WriteFile(ctx, "f", strings.NewReader("old\n"), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := s.WriteFile(ctx, "f", bytes.NewReader(big("new", 2*ChunkSize)), store.WriteOptions{})
		if !errors.Is(err, errInjected) {
			t.Fatalf("write with the object store failing: %v, want the cause", err)
		}
		if got := readObj(t, s, "f"); string(got) != "old\n" {
			t.Fatalf("f holds %q after the failed write", got)
		}
		if _, err := s.WriteFile(ctx, "g", bytes.NewReader(big("g", 2*ChunkSize)), store.WriteOptions{}); err == nil {
			t.Fatal("a new file written without its objects")
		}
		if _, err := s.Stat(ctx, "g"); err == nil {
			t.Fatal("a failed write left a file")
		}
	})
}

// TestGCGrace: the collector deletes objects nothing refers to once older than the grace
// period, and no other.
func TestGCGrace(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := blob.NewMem()
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		kept, gone := big("kept", ChunkSize), big("gone", ChunkSize)
		for _, c := range [][]byte{gone, kept} {
			if _, err := s.WriteFile(ctx, "f", bytes.NewReader(c), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		st, err := x.CollectGarbage(ctx, time.Hour)
		if err != nil || st.Deleted != 0 || st.Objects != 2 {
			t.Fatalf("within the grace period: %+v, %v", st, err)
		}
		past := time.Now().Add(-2 * time.Hour)
		objs.Age(blob.ChunkKey(blob.Sum(kept)), past)
		objs.Age(blob.ChunkKey(blob.Sum(gone)), past)
		x.db.ExecContext(ctx, `UPDATE llmfs_objects SET seen = 0`)
		st, err = x.CollectGarbage(ctx, time.Hour)
		if err != nil || st.Deleted != 1 {
			t.Fatalf("after the grace period: %+v, %v; want the unreferenced object deleted", st, err)
		}
		if _, err := objs.Get(ctx, blob.ChunkKey(blob.Sum(gone))); err == nil {
			t.Fatal("the unreferenced object is still there")
		}
		if got := readObj(t, s, "f"); !bytes.Equal(got, kept) {
			t.Fatal("f lost its content")
		}
	})
}

// TestGCRace: a collector with no grace at all, racing writers whose puts are slow and
// sometimes fail, forks and undo-like rewrites of the same content, never deletes an object
// that a file refers to.
func TestGCRace(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := blob.NewMem()
		x.SetBlobs(&flaky{Store: objs, delay: 20 * time.Millisecond, every: 7})
		s := newWorkspace(t, x, Quota{})
		var contents [][]byte
		for k := range 24 {
			contents = append(contents, big(fmt.Sprint("c", k), ChunkSize*(1+k%2)+5*(k%3)))
		}
		stop := make(chan struct{})
		var deleted atomic.Int64
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("w%d-f%d", w, i%2)
					// Content that changes often enough to go unreferenced between
					// forks, and comes back: a put then finds its object there.
					c := contents[(w+i/4)%len(contents)]
					var err error
					if i%4 >= 2 {
						err = s.Remove(ctx, name)
					} else if _, err = s.WriteFile(ctx, name, bytes.NewReader(c), store.WriteOptions{}); err == nil {
						// At once: a later put of the same content would bring a
						// wrongly deleted object back.
						err = readBack(s, name, c)
					}
					// A deadlock between a write and a fork on PostgreSQL (the write
					// locks its row then the workspace's, the fork the other way round)
					// is retried (TestForkBesideWriters).
					if err != nil && !errors.Is(err, errInjected) && !errors.Is(err, iofs.ErrNotExist) {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				st, err := x.CollectGarbage(ctx, 0)
				if err != nil {
					t.Error(err)
					return
				}
				deleted.Add(int64(st.Deleted))
				if i%10 == 0 {
					fork := fmt.Sprintf("%s-f%d", s.ID(), i)
					if err := x.Fork(ctx, s.ID(), fork); err != nil {
						t.Error(err)
						return
					}
					// Removed once the writers are done: on PostgreSQL, removing a
					// workspace beside a write to content it shares can leave that
					// content's chunks behind (each transaction sees the other's
					// reference still there), a leak found by this test and not fixed here.
					t.Cleanup(func() { x.Remove(context.Background(), fork) })
				}
			}
		})
		time.Sleep(3 * time.Second)
		close(stop)
		wg.Wait()
		if _, err := x.CollectGarbage(ctx, 0); err != nil {
			t.Fatal(err)
		}
		ws, err := x.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		files := 0
		for _, w := range ws {
			if !strings.HasPrefix(w.ID, s.ID()) {
				continue
			}
			ss, err := x.Workspace(ctx, w.ID, nil)
			if err != nil {
				t.Fatal(err)
			}
			for d := range 3 {
				for i := range 4 {
					name := fmt.Sprintf("w%d-f%d", d, i)
					f, err := ss.Open(ctx, name)
					if errors.Is(err, iofs.ErrNotExist) {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					if _, err := io.ReadAll(f); err != nil {
						t.Fatalf("%s in %s: %v", name, w.ID, err)
					}
					f.Close()
					files++
				}
			}
		}
		if files == 0 {
			t.Fatal("no file to check")
		}
		t.Logf("%d files checked, %d objects collected meanwhile", files, deleted.Load())
	})
}

// readBack checks that name holds want.
func readBack(s *Store, name string, want []byte) error {
	f, err := s.Open(ctx, name)
	if err != nil {
		return err
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s holds %d bytes, not the %d written", name, len(got), len(want))
	}
	return nil
}

// TestObjectsJournalShared: the journal's copy of a large file's content is kept in the
// same objects as the file's chunks (one content space): recording it adds no object, it
// reads back whole, and the collector keeps the objects while the journal refers to them.
func TestObjectsJournalShared(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		objs := blob.NewMem()
		x.SetBlobs(objs)
		s := newWorkspace(t, x, Quota{})
		content := big("journal", blobPart+3*ChunkSize+7)
		if _, err := s.WriteFile(ctx, "f", bytes.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		n := countObjects(t, objs)
		l, err := x.Log(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		c := &store.Change{Op: "write", Path: "f", Before: store.Version{Kind: store.Absent}, After: store.FileVersion(content)}
		if _, err := l.Add(ctx, "t", 0, []*store.Change{c}, [][]byte{content}, store.Committed, nil); err != nil {
			t.Fatal(err)
		}
		if after := countObjects(t, objs); after != n {
			t.Fatalf("the journal's copy added %d objects", after-n)
		}
		var inDB int64
		if err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT COALESCE(SUM(LENGTH(data)), 0) FROM llmfs_jparts WHERE hash = ?`),
			store.Hash(content)).Scan(&inDB); err != nil {
			t.Fatal(err)
		}
		if inDB >= ChunkSize {
			t.Fatalf("the journal keeps %d bytes of the content in the database, want only a partial chunk", inDB)
		}
		if err := s.Remove(ctx, "f"); err != nil {
			t.Fatal(err)
		}
		if _, err := x.db.ExecContext(ctx, `UPDATE llmfs_objects SET seen = 0`); err != nil {
			t.Fatal(err)
		}
		if st, err := x.CollectGarbage(ctx, 0); err != nil || st.Deleted != 0 {
			t.Fatalf("collecting what the journal refers to: %+v, %v", st, err)
		}
		got, err := l.Blob(ctx, store.Hash(content))
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("the journal's content: %d bytes, %v", len(got), err)
		}
	})
}
