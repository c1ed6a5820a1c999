package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"time"

	"github.com/llmfs/llmfs/store"
)

// WriteFile implements [store.Store]. The content is streamed into chunks inside the
// transaction, so a large write needs no more memory than a chunk; content that fits in one
// chunk is read before the transaction starts, so slow readers do not hold locks for small
// writes. It returns the number of bytes read from r (for an append, the bytes appended).
func (s *Store) WriteFile(ctx context.Context, name string, r io.Reader, opts store.WriteOptions) (int64, error) {
	if !fs.ValidPath(name) {
		return 0, pathErr("write", name, store.ErrInvalidName)
	}
	if name == "." {
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	switch opts.Mode {
	case store.Replace, store.Append, store.Exclusive:
	default:
		return 0, pathErr("write", name, fs.ErrInvalid)
	}
	// Peek one byte past a chunk to learn whether the content is small.
	head, err := io.ReadAll(io.LimitReader(r, ChunkSize+1))
	if err != nil {
		return 0, pathErr("write", name, err)
	}
	small := len(head) <= ChunkSize
	var written int64
	var rest io.Reader
	var rw *rewinder
	if !small {
		// Streamed content is read inside the transaction: it can run again only if r
		// can be read again.
		rest, rw = r, newRewinder(r)
	}
	err = s.change(ctx, small || rw != nil, func(t *txn) error {
		if rw != nil {
			if err := rw.rewind(); err != nil {
				return err
			}
		}
		var err error
		written, err = s.write(t, name, head, rest, opts)
		return err
	})
	if err != nil {
		return 0, pathErr("write", name, err)
	}
	return written, nil
}

// write writes head followed by rest; rest is nil when head is all the content.
//
// A replaced file keeps its row, which the transaction holds locked, and gets a new content
// id: its old chunks are deleted, so files opened before fail rather than read a mix. Keeping
// the row matters on PostgreSQL, where a writer waiting for the row's lock then finds the
// updated row, rather than no row, when the lock is released.
func (s *Store) write(t *txn, name string, head []byte, rest io.Reader, opts store.WriteOptions) (int64, error) {
	src := io.Reader(bytes.NewReader(head))
	if rest != nil {
		src = io.MultiReader(src, rest)
	}
	if err := s.checkAncestors(t, name, t.d.forShare); err != nil {
		return 0, err
	}
	w := &chunkWriter{t: t, s: s}
	if rest != nil {
		// Streaming: learn the limits now, to stop early rather than at the end.
		var err error
		if w.q, err = s.quota(t); err != nil {
			return 0, err
		}
	}
	for attempt := 0; ; attempt++ {
		old, err := s.current(t, name)
		if err != nil {
			return 0, err
		}
		if old != nil && opts.Mode == store.Exclusive {
			// Like open(O_CREAT|O_EXCL): whatever is there, file or directory, exists.
			return 0, fs.ErrExist
		}
		if old != nil && old.dir {
			return 0, store.ErrIsDir
		}
		if old != nil && old.link {
			// A write replaces a link with a file, as a rename of a new file over it does.
			if err := s.drop(t, old); err != nil {
				return 0, err
			}
			if err := s.account(t, -old.size, -1, 0); err != nil {
				return 0, err
			}
			if s.seen != nil {
				s.seen.forget()
			}
			old = nil
		}
		if opts.IfMatch != "" && (old == nil || old.hash != opts.IfMatch) {
			return 0, store.ErrChanged
		}
		if opts.Mode == store.Replace && opts.IfAbsent && old != nil {
			return 0, store.ErrChanged
		}
		if old != nil && opts.Mode == store.Append {
			return w.appendTo(old, src)
		}
		if rest == nil && s.keepsContent(t) {
			return s.writeKept(t, name, old, head)
		}
		blob, err := newBlob(t)
		if err != nil {
			return 0, err
		}
		if old != nil {
			w.oldSize = old.size
			n, err := w.fill(blob, 0, nil, false, src)
			if err != nil {
				return 0, err
			}
			if err := w.finish(old.id, blob, n); err != nil {
				return 0, err
			}
			if err := dropChunks(t, old.blob); err != nil {
				return 0, err
			}
			return n, s.account(t, n-old.size, 0, n)
		}
		// A new file. Content known in full is described by the insert itself; streamed
		// content is described by finish once it has all been read.
		var size int64
		var sum string
		var state []byte
		if rest == nil {
			h := sha256.New()
			h.Write(head)
			if sum, state, err = hashState(h); err != nil {
				return 0, err
			}
			size = int64(len(head))
		}
		var id int64
		err = t.queryRow(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
			VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?) ON CONFLICT (ws, path) DO NOTHING RETURNING id`,
			s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)), size, time.Now().UnixNano(),
			sum, state, blob).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) && attempt < maxCreateAttempts {
			// PostgreSQL: another transaction created the file since we looked, and has
			// committed (the insert waited for it). Look again, now seeing and locking it.
			continue
		}
		if err != nil {
			return 0, err
		}
		n, err := w.fill(blob, 0, nil, false, src)
		if err != nil {
			return 0, err
		}
		if rest != nil {
			if err := w.finish(id, blob, n); err != nil {
				return 0, err
			}
		}
		return n, s.account(t, n, 1, n)
	}
}

// keepsContent reports whether a write in t keeps small content in the journal's blobs
// (llmfs_jblobs) rather than in chunks of its own: in a journal's change set on SQLite. The
// journal keeps the content a write leaves anyway, so the write stores it once, and with
// no content id to take and no chunks to insert or delete it costs fewer statements than a
// write outside the journal. Not on PostgreSQL, whose writers run side by side: a prune
// could delete a blob a write is about to refer to.
func (s *Store) keepsContent(t *txn) bool {
	return s.seen != nil && t.d.name == SQLite
}

// writeKept writes content (at most a chunk) to name as a file whose content is kept in
// llmfs_jblobs under its hash: a row with content id 0 and a size above 0 (see
// [Store.kept]). old is the file there, if any.
func (s *Store) writeKept(t *txn, name string, old *node, content []byte) (int64, error) {
	h := sha256.New()
	h.Write(content)
	sum, state, err := hashState(h)
	if err != nil {
		return 0, err
	}
	if err := s.keepBlob(t, sum, content); err != nil {
		return 0, err
	}
	n := int64(len(content))
	now := time.Now().UnixNano()
	if old != nil {
		if _, err := t.exec(`UPDATE llmfs_nodes SET blob = 0, size = ?, hash = ?, hstate = ?, mtime = ? WHERE id = ?`,
			n, sum, state, now, old.id); err != nil {
			return 0, err
		}
		if err := dropChunks(t, old.blob); err != nil {
			return 0, err
		}
		return n, s.account(t, n-old.size, 0, n)
	}
	var id int64
	err = t.queryRow(`INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
		VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, 0) ON CONFLICT (ws, path) DO NOTHING RETURNING id`,
		s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)), n, now, sum, state).Scan(&id)
	if err != nil {
		return 0, err // SQLite's writers are serialized: nobody created it since the look
	}
	return n, s.account(t, n, 1, n)
}

// keepBlob keeps content with hash sum in llmfs_jblobs, unless the change set knows it
// kept already (the journal's Add offered it just before the write).
func (s *Store) keepBlob(t *txn, sum string, content []byte) error {
	if s.seen.isKept(sum) {
		return nil
	}
	if _, err := t.exec(`INSERT INTO llmfs_jblobs (hash, size, data) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
		sum, int64(len(content)), content); err != nil {
		return err
	}
	s.seen.markKept(sum)
	return nil
}

// kept returns the content of file n when the journal's blobs keep it (n has no content id
// of its own but a size), or nil.
func kept(t *txn, n *node) ([]byte, error) {
	if n.blob != 0 || n.size == 0 || n.dir {
		return nil, nil
	}
	var data []byte
	err := t.queryRow(`SELECT data FROM llmfs_jblobs WHERE hash = ?`, n.hash).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("content %s of a %d-byte file: %w", n.hash, n.size, store.ErrChanged)
	}
	return data, err
}

// maxCreateAttempts bounds how often a writer that found no file, then lost the race to
// create it, looks again. Each retry means another transaction committed a change to the
// file, so the bound only matters under unending contention.
const maxCreateAttempts = 100

// A chunkWriter streams content into chunks, hashing it and keeping the quota.
type chunkWriter struct {
	t       *txn
	s       *Store
	q       quotaRow // limits for early checks; zero (no early checks) for small writes
	oldSize int64    // size of the content being replaced or appended to
	h       hash.Hash
}

// appendTo adds src after n's content: only n's last, partial chunk is rewritten. The
// content hash continues from the SHA-256 state kept with the file. Content another file
// shares (a copy, a fork) is not changed: n gets a content id of its own, its full chunks
// copied inside the database, before the append.
func (w *chunkWriter) appendTo(n *node, src io.Reader) (int64, error) {
	h, err := w.restoreHash(n)
	if err != nil {
		return 0, err
	}
	w.h, w.oldSize = h, n.size
	seq := n.size / ChunkSize
	var tail []byte
	if n.blob == 0 {
		// Content the journal's blobs keep (see writeKept), at most a chunk, or none.
		if tail, err = kept(w.t, n); err != nil {
			return 0, err
		}
		if int64(len(tail)) != n.size || n.size > ChunkSize {
			return 0, fmt.Errorf("%d-byte file has no content id and %d bytes kept", n.size, len(tail))
		}
		if n.blob, err = newBlob(w.t); err != nil {
			return 0, err
		}
		added, err := w.fill(n.blob, 0, tail, false, src)
		if err != nil {
			return 0, err
		}
		if err := w.finish(n.id, n.blob, n.size+added); err != nil {
			return 0, err
		}
		return added, w.s.account(w.t, added, 0, n.size+added)
	}
	if n.size%ChunkSize != 0 {
		var ref sql.NullString
		if err := w.t.queryRow(`SELECT data, ref FROM llmfs_chunks WHERE blob = ? AND seq = ?`, n.blob, seq).Scan(&tail, &ref); err != nil {
			return 0, fmt.Errorf("read last chunk of %d-byte file: %w", n.size, err)
		}
		if tail, err = w.s.x.chunkData(w.t.ctx, tail, ref); err != nil {
			return 0, err
		}
		if int64(len(tail)) < n.size%ChunkSize {
			return 0, fmt.Errorf("last chunk of %d-byte file holds %d bytes", n.size, len(tail))
		}
		tail = tail[:n.size%ChunkSize]
	}
	stored := tail != nil
	isShared, err := shared(w.t, n.blob, n.id)
	if err != nil {
		return 0, err
	}
	if isShared {
		own, err := newBlob(w.t)
		if err != nil {
			return 0, err
		}
		if _, err := w.t.exec(`INSERT INTO llmfs_chunks (blob, seq, data, ref) SELECT ?, seq, data, ref FROM llmfs_chunks WHERE blob = ? AND seq < ?`,
			own, n.blob, seq); err != nil {
			return 0, err
		}
		n.blob, stored = own, false
	}
	added, err := w.fill(n.blob, seq, tail, stored, src)
	if err != nil {
		return 0, err
	}
	if err := w.finish(n.id, n.blob, n.size+added); err != nil {
		return 0, err
	}
	return added, w.s.account(w.t, added, 0, n.size+added)
}

// fill writes src into chunks seq, seq+1, ... of content blob, hashing it into w.h (a new
// hash if nil). pending is what chunk seq already holds (stored says its row exists). It
// returns the number of bytes read from src.
func (w *chunkWriter) fill(blob, seq int64, pending []byte, stored bool, src io.Reader) (int64, error) {
	if w.h == nil {
		w.h = sha256.New()
	}
	size := seq*ChunkSize + int64(len(pending)) // the file's size so far
	var n int64
	buf := make([]byte, ChunkSize)
	for {
		cur := copy(buf, pending)
		m, rerr := io.ReadFull(src, buf[cur:])
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return 0, rerr
		}
		if m > 0 {
			w.h.Write(buf[cur : cur+m])
			n += int64(m)
			size += int64(m)
			if err := w.check(size); err != nil {
				return 0, err
			}
			data := buf[:cur+m]
			if err := w.s.x.putChunk(w.t, blob, seq, data, stored); err != nil {
				return 0, err
			}
		}
		if rerr != nil { // EOF: src is done
			return n, nil
		}
		seq++
		pending, stored = nil, false
	}
}

// check fails early with [store.ErrQuota] once a file grows to size past a limit, so a huge
// write to a small quota does not stream everything first. [Store.account] has the last word.
func (w *chunkWriter) check(size int64) error {
	q := w.q
	if q.MaxFileBytes > 0 && size > q.MaxFileBytes {
		return store.ErrQuota
	}
	if grow := size - w.oldSize; q.MaxBytes > 0 && grow > 0 && q.used.Bytes+grow > q.MaxBytes {
		return store.ErrQuota
	}
	return nil
}

// hashState returns h's sum in hex and its state, from which an append continues.
func hashState(h hash.Hash) (string, []byte, error) {
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return "", nil, err
	}
	return hex.EncodeToString(h.Sum(nil)), state, nil
}

// finish records file id's content id, size, and the hash of what w.h consumed.
func (w *chunkWriter) finish(id, blob, size int64) error {
	sum, state, err := hashState(w.h)
	if err != nil {
		return err
	}
	_, err = w.t.exec(`UPDATE llmfs_nodes SET blob = ?, size = ?, hash = ?, hstate = ?, mtime = ? WHERE id = ?`,
		blob, size, sum, state, time.Now().UnixNano(), id)
	return err
}

// restoreHash returns a SHA-256 that has consumed n's content: from the saved state, or,
// if that is missing or unreadable, by reading the content back.
func (w *chunkWriter) restoreHash(n *node) (hash.Hash, error) {
	h := sha256.New()
	if len(n.hstate) > 0 {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(n.hstate); err == nil {
			return h, nil
		}
		h.Reset()
	}
	if n.blob == 0 {
		data, err := kept(w.t, n)
		h.Write(data)
		return h, err
	}
	rows, err := w.t.query(`SELECT data, ref FROM llmfs_chunks WHERE blob = ? ORDER BY seq`, n.blob)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	left := n.size // shared content's last chunk may have grown past this file's end
	for rows.Next() {
		var data []byte
		var ref sql.NullString
		if err := rows.Scan(&data, &ref); err != nil {
			return nil, err
		}
		if data, err = w.s.x.chunkData(w.t.ctx, data, ref); err != nil {
			return nil, err
		}
		data = data[:min(int64(len(data)), left)]
		h.Write(data)
		left -= int64(len(data))
	}
	return h, rows.Err()
}
