package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"sync"

	"github.com/llmfs/llmfs/store"
)

// What a change set has looked at, and the Snapshot that answers from it.

var _ store.Snapshotter = (*Store)(nil)

// seen is what a change set's transaction has looked at: the rows its Stat and Snapshot
// read, each with the file's first chunk, until the change set changes something; and the
// content the journal is known to keep already. A journaled write looks at its file three
// times (the operation's Stat, the journal's snapshot of the content it replaces, the
// write itself): the snapshot then costs no query, and the content before a write, which
// is mostly the content after the one before it, is neither read again nor offered to the
// journal again. (On PostgreSQL a prune running beside the change set may delete a blob
// known kept before the change set's entries commit, as it could before: a blob offered
// again conflicts with the kept row and is not inserted either.)
type seen struct {
	mu    sync.Mutex
	looks map[string]*look
	kept  map[string]bool // hashes of content llmfs_jblobs holds
}

// maxLooks bounds the looks a change set keeps (each may hold a chunk of 64 KiB): a
// journaled write needs only its own path's.
const maxLooks = 16

// A look is what a path held: its row (nil if none) and, for a file, its first chunk.
type look struct {
	n     *node
	first []byte
}

func (c *seen) get(name string) *look {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.looks[name]
}

func (c *seen) put(name string, l *look, kept bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.looks == nil {
		c.looks = map[string]*look{}
	}
	if len(c.looks) >= maxLooks {
		// An undo or restore snapshots every path it puts back before it changes any:
		// keeping every look (with its first chunk) would hold them all in memory at once.
		clear(c.looks)
	}
	c.looks[name] = l
	if kept {
		c.keep(l.n.hash)
	}
}

// keep notes that the journal keeps content h; c.mu is held.
func (c *seen) keep(h string) {
	if c.kept == nil {
		c.kept = map[string]bool{}
	}
	c.kept[h] = true
}

func (c *seen) isKept(h string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept[h]
}

func (c *seen) markKept(h string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(h)
}

// forget drops the looks: the change set changed something. c may be nil (a store not
// bound to a change set).
func (c *seen) forget() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.looks)
}

// unkept returns the blobs the journal is not known to keep, noting them as kept: the
// caller inserts them in the change set's transaction.
func (c *seen) unkept(blobs [][]byte) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := blobs[:0:0]
	for _, b := range blobs {
		h := store.Hash(b)
		if c.kept[h] {
			continue
		}
		c.keep(h)
		out = append(out, b)
	}
	return out
}

// look returns what name holds, in one query: its row (nil if none), the first chunk of
// its content, and whether the journal keeps that content. In a change set it answers
// from what the change set saw, when it has not changed anything since.
func (s *Store) look(t *txn, name string) (*look, error) {
	if s.seen != nil {
		if l := s.seen.get(name); l != nil {
			return l, nil
		}
	}
	var n node
	var p, first []byte
	var dir int64
	var kept bool
	var ref sql.NullString
	err := t.queryRow(`SELECT n.id, n.path, n.dir, n.size, n.mtime, n.hash, n.hstate, n.blob, `+firstChunk+`,
		EXISTS (SELECT 1 FROM llmfs_jblobs j WHERE j.hash = n.hash), c.ref
		FROM llmfs_nodes n LEFT JOIN llmfs_chunks c ON c.blob = n.blob AND c.seq = 0
		WHERE n.ws = ? AND n.path = ?`, s.ws, []byte(name)).Scan(&n.id, &p, &dir, &n.size, &n.mtime,
		&n.hash, &n.hstate, &n.blob, &first, &kept, &ref)
	if err == nil {
		first, err = s.x.chunkData(t.ctx, first, ref)
	}
	l := &look{}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		kept = false
	case err != nil:
		return nil, err
	default:
		n.path = string(p)
		n.setKind(dir)
		l.n, l.first = &n, first
		kept = kept && !n.dir && !n.link
	}
	if s.seen != nil {
		s.seen.put(name, l, kept)
	}
	return l, nil
}

// current returns the row of name, about to change in t: locked, on PostgreSQL. In a
// change set on SQLite, whose transaction holds the write lock, the row the change set
// looked at is still current (every change forgets the looks), and no query is needed.
func (s *Store) current(t *txn, name string) (*node, error) {
	if s.seen != nil && t.d.forUpdate == "" {
		if l := s.seen.get(name); l != nil {
			if l.n == nil {
				return nil, nil
			}
			n := *l.n
			return &n, nil
		}
	}
	return s.get(t, name, t.d.forUpdate)
}

// Snapshot implements [store.Snapshotter]: one query for the path's row, which holds a
// file's hash, and its first chunk, which is all the content of a small file (in a change
// set that looked at the path already, none). A name below a file or a missing directory
// is absent, as in the fallback.
func (s *Store) Snapshot(ctx context.Context, name string, max int64) (store.Version, []byte, error) {
	if !fs.ValidPath(name) {
		return store.Version{}, nil, pathErr("snapshot", name, store.ErrInvalidName)
	}
	t := s.read(ctx)
	l, err := s.look(t, name)
	n := (*node)(nil)
	if l != nil {
		n = l.n
	}
	switch {
	case err != nil:
		return store.Version{}, nil, pathErr("snapshot", name, err)
	case n == nil:
		return store.Version{Kind: store.Absent}, nil, nil
	case n.dir:
		return store.Version{Kind: store.Dir}, nil, nil
	case n.link:
		target, err := s.target(t, name)
		if err != nil {
			return store.Version{}, nil, pathErr("snapshot", name, err)
		}
		v, data := store.LinkVersion(target)
		return v, data, nil
	}
	v := store.Version{Kind: store.File, Hash: n.hash, Size: n.size}
	if n.size > max && n.hash != "" {
		return v, nil, nil
	}
	var data []byte
	if n.size <= ChunkSize && int64(len(l.first)) >= n.size {
		data = bytes.Clone(l.first[:n.size:n.size])
		if data == nil {
			data = []byte{}
		}
	} else if data, err = s.content(t, n); err != nil {
		// Replaced since the look (on PostgreSQL, by another writer): the caller looks
		// again, at the row.
		s.seen.forget()
		return store.Version{}, nil, pathErr("snapshot", name, err)
	}
	if n.size > max {
		v.Hash = store.Hash(data)
		return v, nil, nil
	}
	if v.Hash == "" {
		v = store.FileVersion(data)
	}
	return v, data, nil
}

// content reads all of file n's content, in one query.
func (s *Store) content(t *txn, n *node) ([]byte, error) {
	data := make([]byte, 0, n.size)
	if n.blob == 0 {
		k, err := kept(t, n)
		return append(data, k...), err
	}
	rows, err := t.query(`SELECT data, ref FROM llmfs_chunks WHERE blob = ? ORDER BY seq`, n.blob)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		var ref sql.NullString
		if err := rows.Scan(&b, &ref); err != nil {
			return nil, err
		}
		if b, err = s.x.chunkData(t.ctx, b, ref); err != nil {
			return nil, err
		}
		data = append(data, b...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(data)) != n.size {
		// Replaced since the row was read (outside a transaction): look again.
		return nil, store.ErrChanged
	}
	return data, nil
}
