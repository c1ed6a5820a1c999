//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// An import reads the files of a batch ahead of the writer, in a goroutine of its own, so
// the open, stat and read system calls of the host files run on the other core while
// SQLite writes (one goroutine doing both ran the import on one core: issue 18.6). Files of
// up to prefetchMax bytes come whole; larger ones are opened by the writer and streamed,
// so at most prefetchDepth*prefetchMax bytes wait in memory.
const (
	prefetchMax   = 256 << 10
	prefetchDepth = 64
	// prefetchGroup is how many files the reader hands on at once. One at a time, the
	// writer (the slower) woke the reader for every file it took, and the reader slept
	// again after one file: a wake-up, and a thread looking for work, per file.
	prefetchGroup = 16
)

// A prefetched file is the content of a batch's next file and its hash, or nil data with
// a nil error for a file the writer opens itself. The reader hashes what it read, so that
// the writer does not (a tenth of an import's CPU, on the writer's goroutine).
type prefetched struct {
	data   []byte
	err    error
	large  bool
	sum    sqlstore.Sum
	hashed bool
}

// prefetch reads the regular files of batch, in order, from the directory dir, until the
// batch is done or stop is closed. next returns them one by one (none for directories),
// and must be called once per regular file of the batch at most.
func prefetch(dir string, batch []copyItem, stop <-chan struct{}) (next func() prefetched) {
	ch := make(chan []prefetched, prefetchDepth/prefetchGroup)
	go func() {
		defer close(ch)
		var group []prefetched
		for i, it := range batch {
			if !it.dir {
				var p prefetched
				if it.size > prefetchMax {
					p.large = true
				} else {
					p.data, p.err = readHostFile(filepath.Join(dir, filepath.FromSlash(it.rel)), it.size)
					if p.err == nil {
						p.sum, p.err = sqlstore.SumOf(p.data)
						p.hashed = p.err == nil
					}
				}
				group = append(group, p)
			}
			if len(group) == 0 || len(group) < prefetchGroup && i < len(batch)-1 {
				continue
			}
			select {
			case ch <- group:
				group = nil
			case <-stop:
				return
			}
		}
	}()
	var cur []prefetched
	return func() prefetched {
		for len(cur) == 0 {
			g, ok := <-ch
			if !ok {
				return prefetched{err: errors.New("import: the file reader stopped")}
			}
			cur = g
		}
		p := cur[0]
		cur = cur[1:]
		return p
	}
}

// openImported returns the content of the next file of a batch, from the prefetcher or,
// for a large file, opened from the host; close releases it.
func openImported(p prefetched, host string) (r io.Reader, close func(), err error) {
	if !p.large {
		return bytes.NewReader(p.data), func() {}, p.err
	}
	f, err := os.Open(host)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// bulkDSN returns a SQLite DSN with SQLite's automatic checkpoints off, unless the DSN sets
// wal_autocheckpoint itself; other DSNs are returned as they are. SQLite copies its
// write-ahead log into the database after each commit that leaves the log over 1,000 pages,
// in the committing call: for an import, each batch's commit then waited for a copy of the
// batch and two fsyncs. An import checkpoints from a goroutine of its own instead
// ([checkpointer]).
func bulkDSN(dsn string) string {
	if !strings.HasPrefix(dsn, "sqlite:") || strings.Contains(dsn, "wal_autocheckpoint") {
		return dsn
	}
	if _, ok := sqliteFile(dsn); !ok {
		return dsn // in memory: no log
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "_pragma=wal_autocheckpoint(0)"
}

// A checkpointer runs one SQLite checkpoint at a time in the background, after each batch
// of an import, while the next batch is written.
type checkpointer struct {
	x    *sqlstore.DB
	done chan error // the running checkpoint's result; nil when none runs
}

func newCheckpointer(x *sqlstore.DB) *checkpointer { return &checkpointer{x: x} }

// start waits for the checkpoint running, if any, then starts another. A failed background
// checkpoint is no failure of the import (SQLite checkpoints at the next occasion); wait
// reports only the last.
func (c *checkpointer) start(ctx context.Context) {
	c.wait()
	c.done = make(chan error, 1)
	go func() { c.done <- c.x.CheckpointWAL(ctx) }()
}

// wait waits for the running checkpoint and returns its error.
func (c *checkpointer) wait() error {
	if c.done == nil {
		return nil
	}
	err := <-c.done
	c.done = nil
	return err
}
