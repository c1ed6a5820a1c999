//go:build !js && !wasip1

package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/blob"
)

// tripCounter counts the statements pgx sends to PostgreSQL, each a round trip: queries
// and executions (BEGIN and COMMIT included), preparations and COPYs.
type tripCounter struct {
	n       atomic.Int64
	copies  atomic.Int64 // COPYs
	maxArgs atomic.Int64 // the most parameters of one statement
}

func (c *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	for n := int64(len(d.Args)); n > c.maxArgs.Load(); {
		if c.maxArgs.CompareAndSwap(c.maxArgs.Load(), n) {
			break
		}
	}
	return ctx
}
func (c *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *tripCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *tripCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}
func (c *tripCounter) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	c.n.Add(1)
	c.copies.Add(1)
	return ctx
}
func (c *tripCounter) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

// connectCounted returns a DB over the test's PostgreSQL database whose round trips c counts.
func connectCounted(t *testing.T) (*DB, *tripCounter) {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	if dsn == "" {
		t.Skipf("PostgreSQL not tested: set %s to a DSN (see .ci/postgres.sh)", postgresEnv)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	c := &tripCounter{}
	cfg.Tracer = c
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	x, err := New(ctx, db, Postgres)
	if err != nil {
		t.Fatal(err)
	}
	x.freshBlobs = true
	return x, c
}

// Issue 38: an import into PostgreSQL made two round trips per small file (its node's
// INSERT, then its chunk's) and more per large one, and the round trips were where an
// import's wall time went. A batch now sends its rows many to a statement: the import of
// 20 directories of 20 small files and a few files of several chunks, kept in object
// storage, takes well under one round trip per 10 files.
func TestBatchRoundTrips(t *testing.T) {
	x, c := connectCounted(t)
	x.SetBlobs(blob.NewMem())
	s := newWorkspace(t, x, Quota{})
	const dirs = 20
	files := map[string][]byte{}
	var names []string
	for d := range dirs {
		for f := range 20 {
			name := fmt.Sprintf("d%d/f%d.txt", d, f)
			names = append(names, name)
			files[name] = []byte(fmt.Sprintf("file %d of directory %d\n", f, d))
		}
	}
	for i := range 8 {
		name := fmt.Sprintf("d%d/big", i)
		names = append(names, name)
		files[name] = big(fmt.Sprint("big", i%4), 3*ChunkSize+i)
	}
	before := c.n.Load()
	err := s.Batch(ctx, func(b *Batch) error {
		for d := range dirs {
			if err := b.Mkdir(fmt.Sprintf("d%d", d)); err != nil {
				return err
			}
		}
		for _, name := range names {
			if _, err := b.WriteFile(name, bytes.NewReader(files[name])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	trips := c.n.Load() - before
	entries := int64(dirs + len(names))
	t.Logf("%d round trips for %d entries", trips, entries)
	if trips*10 > entries {
		t.Errorf("%d round trips for %d entries, want under one per 10", trips, entries)
	}
	for _, name := range names {
		if err := readBack(s, name, files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if _, u, err := s.Quota(ctx); err != nil || u.Files != entries {
		t.Errorf("usage %+v, %v; want %d entries", u, err, entries)
	}
}

// Entries queued for a multi-row statement land as they would one at a time: a name
// written twice in a batch holds the second content, a directory over a file fails with
// fs.ErrExist, a file over an existing one replaces it, and a file too large to queue is
// written after those queued before it.
func TestBatchQueueOrder(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		x := b.connect(t)
		x.SetBlobs(blob.NewMem())
		s := newWorkspace(t, x, Quota{})
		writeString(t, s, "old", "old content", store.WriteOptions{})
		large := big("large", queueWholeMax+ChunkSize+5)
		mid := big("mid", 2*ChunkSize+7)
		err := s.Batch(ctx, func(bt *Batch) error {
			for _, w := range []struct{ name, content string }{
				{"f", "one"}, {"g", "g"}, {"f", "two"}, {"old", string(mid)}, {"large", "first"}, {"large", string(large)},
			} {
				if _, err := bt.WriteFile(w.name, strings.NewReader(w.content)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string][]byte{"f": []byte("two"), "g": []byte("g"), "old": mid, "large": large} {
			if err := readBack(s, name, want); err != nil {
				t.Error(err)
			}
		}
		_, u, err := s.Quota(ctx)
		if want := int64(3 + len(mid) + len(large) + 1); err != nil || u.Files != 4 || u.Bytes != want {
			t.Errorf("usage %+v, %v; want 4 files of %d bytes", u, err, want)
		}
		err = s.Batch(ctx, func(bt *Batch) error {
			if _, err := bt.WriteFile("h", strings.NewReader("h")); err != nil {
				return err
			}
			return bt.Mkdir("g")
		})
		if !errors.Is(err, fs.ErrExist) {
			t.Errorf("Mkdir over a file = %v, want ErrExist", err)
		}
		if _, err := s.Stat(ctx, "h"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("h after a failed batch: %v, want none", err)
		}
	})
}

// sqlStateError is an error carrying a PostgreSQL SQLSTATE, as pgx's errors do.
type sqlStateError string

func (e sqlStateError) Error() string    { return "injected SQLSTATE " + string(e) }
func (e sqlStateError) SQLState() string { return string(e) }

// A batch PostgreSQL aborts for a serialization failure or a deadlock was not run again
// (the note of issue 38): RetryBatch runs it again from the start, and what the aborted
// run wrote is gone with its transaction. Batch itself still does not retry.
func TestRetryBatch(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		for _, state := range []string{"40001", "40P01"} {
			runs := 0
			err := s.RetryBatch(ctx, func(bt *Batch) error {
				runs++
				for i := range 3 {
					if _, err := bt.WriteFile(fmt.Sprintf("%s-%d", state, i), strings.NewReader(state)); err != nil {
						return err
					}
				}
				if runs == 1 {
					return sqlStateError(state)
				}
				return nil
			})
			if err != nil || runs != 2 {
				t.Fatalf("RetryBatch = %v after %d runs, want nil after 2", err, runs)
			}
		}
		if u := checkUsage(t, s); u.Files != 6 || u.Bytes != 30 {
			t.Errorf("usage %+v, want 6 files of 30 bytes", u)
		}
		runs := 0
		err := s.Batch(ctx, func(bt *Batch) error { runs++; return sqlStateError("40001") })
		if sqlState(err) != "40001" || runs != 1 {
			t.Errorf("Batch = %v after %d runs, want the error after 1", err, runs)
		}
	})
}

// A batch has PostgreSQL compress the content it keeps with lz4 where the server offers
// it (pglz, the default, was most of the server's CPU in an import).
func TestBatchLZ4(t *testing.T) {
	x, _ := connectCounted(t)
	if !x.serverLZ4(ctx) {
		t.Skip("this PostgreSQL has no lz4")
	}
	s := newWorkspace(t, x, Quota{})
	content := big("compressible", 3*ChunkSize/2)
	err := s.Batch(ctx, func(b *Batch) error {
		_, err := b.WriteFile("f", bytes.NewReader(content))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var method string
	err = x.db.QueryRowContext(ctx, `SELECT COALESCE(pg_column_compression(c.data), 'none') FROM llmfs_chunks c
		JOIN llmfs_nodes n ON n.blob = c.blob WHERE n.ws = $1 AND n.path = $2 AND c.seq = 0`, s.ws, []byte("f")).Scan(&method)
	if err != nil || method != "lz4" {
		t.Errorf("chunk compressed with %q, %v; want lz4", method, err)
	}
	if err := readBack(s, "f", content); err != nil {
		t.Error(err)
	}
}
