package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"hash"
	"io"
	"io/fs"
	"path"
	"time"

	"github.com/llmfs/llmfs/store"
)

// A Batch adds many files and directories in one writing transaction, for bulk loads such
// as `llmfs ws import`. One operation per transaction ran each file's six statements through
// the SQL parser again and committed (a WAL write) per file: about 500 files per second on
// SQLite (issue 18.6). A batch prepares its statements once, checks each parent directory
// once, reserves content ids and keeps the quota in one update at the end, and commits once.
//
// A Batch is only valid inside the function given to [Store.Batch] and is not safe for
// concurrent use.
type Batch struct {
	s     *Store
	t     *txn
	stmts map[string]*sql.Stmt
	known map[string]bool // directories this transaction created or found, with their ancestors
	buf   []byte
	ctx   context.Context // the transaction's, without its cancellation (see Store.Batch)

	ids []int64 // content ids reserved and not yet used

	puts *objectPuts // chunks being put into object storage, if any
	q    queue       // entries not yet written (PostgreSQL, see queues)
	// writing, if not nil, gets the result of the queue being written (see flush).
	writing chan error

	bytes, files, maxFile int64 // usage added by the fast path, accounted at the end
}

// Batch runs fn in one writing transaction with a [Batch] adding to the workspace; the
// changes commit together when fn returns nil, and none of them when it returns an error.
// The quota is checked once, at the end, against everything the batch added. A store bound
// to a journal's change set adds to that change set's transaction.
func (s *Store) Batch(ctx context.Context, fn func(b *Batch) error) error {
	return s.batch(ctx, false, fn)
}

// RetryBatch is [Store.Batch] run again when PostgreSQL aborts its transaction for a
// deadlock (40P01) or a serialization failure (40001), as single writes are: up to 5 times
// in all, after a random wait that doubles (see retry.go). fn must be safe to run again,
// each run from the start, as an import that reads its files from the host is.
func (s *Store) RetryBatch(ctx context.Context, fn func(b *Batch) error) error {
	return s.batch(ctx, true, fn)
}

func (s *Store) batch(ctx context.Context, retry bool, fn func(b *Batch) error) error {
	// Asked before the transaction takes a connection (see serverLZ4); a store bound to a
	// journal's change set, whose transaction runs already, does without.
	lz4 := s.tx == nil && s.x.d.name == Postgres && s.x.serverLZ4(ctx)
	return s.change(ctx, retry, func(t *txn) error {
		// The statements run without ctx's cancellation: with it, database/sql and the
		// driver start a goroutine per statement to watch it (8% of an import's CPU).
		// Each entry checks ctx instead.
		b := &Batch{s: s, t: t, stmts: map[string]*sql.Stmt{}, known: map[string]bool{".": true},
			ctx: context.WithoutCancel(ctx)}
		defer b.close()
		if lz4 {
			if err := b.compressLZ4(); err != nil {
				return err
			}
		}
		err := fn(b)
		if err == nil {
			err = b.flush()
		}
		// The queue's last statements end before the transaction does, whether it
		// commits or not.
		if serr := b.settle(); err == nil {
			err = serr
		}
		// Every put ends before the transaction does, whether it commits or not.
		if perr := b.puts.wait(); err == nil {
			err = perr
		}
		if err != nil {
			return err
		}
		if b.files == 0 && b.bytes == 0 {
			return nil
		}
		return s.account(t, b.bytes, b.files, b.maxFile)
	})
}

func (b *Batch) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}

// stmt returns q prepared on the batch's transaction.
func (b *Batch) stmt(q string) (*sql.Stmt, error) {
	if st, ok := b.stmts[q]; ok {
		return st, nil
	}
	p, ok := b.t.q.(interface {
		PrepareContext(context.Context, string) (*sql.Stmt, error)
	})
	if !ok {
		return nil, errors.New("sqlstore: batch transaction cannot prepare statements")
	}
	st, err := p.PrepareContext(b.ctx, b.t.d.rebind(q))
	if err != nil {
		return nil, err
	}
	b.stmts[q] = st
	return st, nil
}

// parent checks, once per directory and transaction, that the directories above name exist
// (locking them on PostgreSQL until commit, as every writer does).
func (b *Batch) parent(name string) error {
	if b.known[parentOf(name)] {
		return nil
	}
	// The directories above may be queued.
	if err := b.flushNow(); err != nil {
		return err
	}
	if err := b.s.checkAncestors(b.t, name, b.t.d.forShare); err != nil {
		return err
	}
	for _, a := range ancestors(name) {
		b.known[a] = true
	}
	return nil
}

// blobBlock is how many content ids a batch reserves at once. Ids left unused are skipped,
// never reused.
const blobBlock = 256

// newBlob returns a content id never used before, from a block reserved with one
// statement: one statement per file was 11% of an import's CPU.
func (b *Batch) newBlob() (int64, error) {
	if len(b.ids) == 0 {
		if err := b.reserveBlobs(blobBlock); err != nil {
			return 0, err
		}
	}
	id := b.ids[0]
	b.ids = b.ids[1:]
	return id, nil
}

// reserveBlobs reserves n content ids into b.ids.
func (b *Batch) reserveBlobs(n int64) error {
	if b.t.d.name == SQLite {
		// The counter row holds the last id handed out; writers are serialized, so the n
		// after it are this batch's.
		st, err := b.stmt(`UPDATE llmfs_counters SET value = value + ? WHERE name = 'blob' RETURNING value`)
		if err != nil {
			return err
		}
		var last int64
		if err := st.QueryRowContext(b.ctx, n).Scan(&last); err != nil {
			return err
		}
		for id := last - n + 1; id <= last; id++ {
			b.ids = append(b.ids, id)
		}
		return nil
	}
	for range n {
		b.ids = append(b.ids, randomBlob())
	}
	return nil
}

const batchInsertDir = `INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash)
	VALUES (?, ?, ?, ?, 1, 0, ?, '') ON CONFLICT (ws, path) DO NOTHING`

// insertNode runs q, an INSERT of one row into llmfs_nodes that does nothing on a conflict,
// and returns the new row's id, or false when there was a row already. On SQLite the id is
// the last insert rowid rather than a RETURNING clause: SQLite runs RETURNING as a trigger,
// which has each insert keep a statement journal, a page written to a temporary file per
// file imported (11,471 for the Go tree).
func (b *Batch) insertNode(q string, args ...any) (int64, bool, error) {
	if b.t.d.name == SQLite {
		st, err := b.stmt(q)
		if err != nil {
			return 0, false, err
		}
		res, err := st.ExecContext(b.ctx, args...)
		if err != nil {
			return 0, false, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return 0, false, err
		}
		id, err := res.LastInsertId()
		return id, err == nil, err
	}
	st, err := b.stmt(q + " RETURNING id")
	if err != nil {
		return 0, false, err
	}
	var id int64
	switch err := st.QueryRowContext(b.ctx, args...).Scan(&id); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	return id, true, nil
}

// Mkdir makes directory name, or finds it there already: unlike [Store.Mkdir], an existing
// directory is no error. Anything else at name fails with an error wrapping [fs.ErrExist].
func (b *Batch) Mkdir(name string) error {
	if !fs.ValidPath(name) {
		return pathErr("mkdir", name, store.ErrInvalidName)
	}
	if name == "." {
		return nil
	}
	if err := b.t.ctx.Err(); err != nil {
		return err
	}
	if err := b.parent(name); err != nil {
		return pathErr("mkdir", name, err)
	}
	if b.queues() {
		return b.queueDir(name)
	}
	_, inserted, err := b.insertNode(batchInsertDir, b.s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)),
		time.Now().UnixNano())
	if err == nil && !inserted {
		n, err := b.s.get(b.t, name, "")
		switch {
		case err != nil:
			return pathErr("mkdir", name, err)
		case n == nil || !n.dir:
			return pathErr("mkdir", name, fs.ErrExist)
		}
		b.known[name] = true
		return nil
	}
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	b.known[name] = true
	b.files++
	b.s.seen.forget() // in a journal's change set, what it looked at has changed
	return nil
}

const (
	batchInsertFile = `INSERT INTO llmfs_nodes (ws, path, parent, name, dir, size, mtime, hash, hstate, blob)
		VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?) ON CONFLICT (ws, path) DO NOTHING`
	batchInsertChunk = `INSERT INTO llmfs_chunks (blob, seq, data, ref) VALUES (?, ?, ?, ?)`
	batchDescribe    = `UPDATE llmfs_nodes SET size = ?, hash = ?, hstate = ? WHERE id = ?`
)

// A Sum is the hash of a file's content as a store keeps it ([SumOf]), taken before the
// content is written ([Batch.WriteFileSum]): a bulk load can hash its files on another
// goroutine than the one writing them. SHA-256 was a tenth of an import's CPU, all of it
// on the writer's.
type Sum struct {
	hex   string
	state []byte
	size  int64
}

// SumOf returns the hash of content.
func SumOf(content []byte) (Sum, error) {
	h := sha256.New()
	h.Write(content)
	hex, state, err := hashState(h)
	if err != nil {
		return Sum{}, err
	}
	return Sum{hex: hex, state: state, size: int64(len(content))}, nil
}

// WriteFile writes r to file name, replacing a file there ([store.Replace]), and returns
// the number of bytes read from r. A new file takes the fast path: its row and chunks are
// inserted with the batch's prepared statements and its size counts toward the quota
// checked at the end; replacing a file goes through [Store.WriteFile]'s own path.
func (b *Batch) WriteFile(name string, r io.Reader) (int64, error) {
	return b.writeFile(name, r, nil)
}

// WriteFileSum is WriteFile of content hashed beforehand: sum must be [SumOf] what r
// yields. Content of another size than sum's is an error (which, like any, fails the
// batch).
func (b *Batch) WriteFileSum(name string, r io.Reader, sum Sum) (int64, error) {
	return b.writeFile(name, r, &sum)
}

func (b *Batch) writeFile(name string, r io.Reader, pre *Sum) (int64, error) {
	if !fs.ValidPath(name) {
		return 0, pathErr("write", name, store.ErrInvalidName)
	}
	if name == "." {
		return 0, pathErr("write", name, store.ErrIsDir)
	}
	if err := b.t.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.create(name, r, pre)
	if err != nil {
		return 0, pathErr("write", name, err)
	}
	return n, nil
}

// create inserts a new file, or hands what is at name to the general path, which
// replaces a file and refuses anything else. pre, if not nil, is the content's hash.
func (b *Batch) create(name string, r io.Reader, pre *Sum) (int64, error) {
	if err := b.parent(name); err != nil {
		return 0, err
	}
	if b.queues() {
		content, whole, err := readWhole(r, pre)
		if err != nil {
			return 0, err
		}
		if whole {
			return b.queueFile(name, content, pre)
		}
		// Too large to queue: written as it is read, after what is queued.
		if err := b.flushNow(); err != nil {
			return 0, err
		}
		r = io.MultiReader(bytes.NewReader(content), r)
	}
	blob, err := b.newBlob()
	if err != nil {
		return 0, err
	}
	if b.buf == nil {
		b.buf = make([]byte, ChunkSize)
	}
	// Read the first chunk before the insert, so a file of one chunk (most) is described
	// by its insert.
	m, rerr := io.ReadFull(r, b.buf)
	if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
		return 0, rerr
	}
	var h hash.Hash
	if pre == nil {
		h = sha256.New()
		h.Write(b.buf[:m])
	}
	whole := rerr != nil // r is done
	if pre != nil && (whole && int64(m) != pre.size || int64(m) > pre.size) {
		return 0, errSumSize
	}
	var sum string
	var state []byte
	if whole {
		if sum, state, err = sumOf(h, pre); err != nil {
			return 0, err
		}
	}
	id, inserted, err := b.insertNode(batchInsertFile, b.s.ws, []byte(name), []byte(parentOf(name)), []byte(path.Base(name)),
		int64(m), time.Now().UnixNano(), sum, state, blob)
	if err == nil && !inserted {
		var rest io.Reader
		if !whole {
			rest = r
		}
		return b.s.write(b.t, name, bytes.Clone(b.buf[:m]), rest, store.WriteOptions{Mode: store.Replace})
	}
	if err != nil {
		return 0, err
	}
	chunks, err := b.stmt(batchInsertChunk)
	if err != nil {
		return 0, err
	}
	size := int64(0)
	for seq := int64(0); m > 0; seq++ {
		size += int64(m)
		inline, ref, err := b.storeChunk(b.buf[:m])
		if err != nil {
			return 0, err
		}
		if _, err := chunks.ExecContext(b.ctx, blob, seq, inline, ref); err != nil {
			return 0, err
		}
		if whole {
			break
		}
		m, rerr = io.ReadFull(r, b.buf)
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return 0, rerr
		}
		if h != nil {
			h.Write(b.buf[:m])
		}
		whole = rerr != nil
	}
	if sum == "" {
		if pre != nil && size != pre.size {
			return 0, errSumSize
		}
		if sum, state, err = sumOf(h, pre); err != nil {
			return 0, err
		}
		desc, err := b.stmt(batchDescribe)
		if err != nil {
			return 0, err
		}
		if _, err := desc.ExecContext(b.ctx, size, sum, state, id); err != nil {
			return 0, err
		}
	}
	b.files++
	b.s.seen.forget()
	b.bytes += size
	b.maxFile = max(b.maxFile, size)
	return size, nil
}

// sumOf returns the hash of a file's content: pre, when taken beforehand, or h's.
func sumOf(h hash.Hash, pre *Sum) (string, []byte, error) {
	if pre != nil {
		return pre.hex, pre.state, nil
	}
	return hashState(h)
}
