package sqlstore

import (
	"errors"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/blob"
)

// Multi-row writes (issue 38). On PostgreSQL every statement is a round trip to the server,
// and an import made two per small file (its node's INSERT, then its chunk's): the round
// trips, not the CPU, were where an import's time went (276 to 1,366 files/s). A batch on
// PostgreSQL queues its new entries instead, content and all, and writes them many rows to
// a statement: one upsert of the objects' rows (whose puts then start), one INSERT of the
// nodes, one COPY of the chunks (batchcopy.go). What the INSERT of the nodes finds there
// already (a file replaced, a directory that exists) then takes the general path, in the
// order queued. The
// queue is written when it is full, before anything that needs what it holds to be in the
// database, and at the end of the batch; every row is in the batch's transaction, so what
// commits is the same as before, one statement at a time. SQLite, whose statements are
// calls into the process, keeps writing each entry at once.
const (
	queueEntries = 1024 // entries queued at most
	// queueBytes bounds the content queued, in bytes: 4 MiB rather than 1 made an import
	// of the Go tree's 122 MiB send about 35 queues instead of 130, each three statements,
	// for 11% less of llmfs's CPU.
	queueBytes = 4 << 20
	// queueWholeMax is the largest file queued: one larger is written as it is read.
	queueWholeMax = 4 << 20
	// rowsPerInsert bounds the rows of one multi-row statement (PostgreSQL takes at most
	// 65,535 parameters in one).
	rowsPerInsert = 4096
)

// A queued entry is a new file or directory waiting for its row.
type queued struct {
	name    string
	dir     bool
	blob    int64
	mtime   int64
	content []byte
	sum     string
	state   []byte
	refs    []string // the hashes of its full chunks, when object storage keeps them
}

var errSumSize = errors.New("sqlstore: content of another size than its sum")

// A queue holds a batch's entries not yet written, and the chunks to put into object
// storage whose rows are not yet upserted.
type queue struct {
	entries []queued
	names   map[string]bool // the entries' names
	bytes   int64
	objects []objectChunk
}

// An objectChunk is a full chunk of content to put into object storage under its hash.
type objectChunk struct {
	sum  string
	data []byte
}

// queues says whether the batch queues its entries (PostgreSQL).
func (b *Batch) queues() bool { return b.t.d.name != SQLite }

// queueDir queues directory name, whose parents are known.
func (b *Batch) queueDir(name string) error {
	if err := b.makeRoom(name); err != nil {
		return err
	}
	b.q.names[name] = true
	b.q.entries = append(b.q.entries, queued{name: name, dir: true, mtime: time.Now().UnixNano()})
	b.known[name] = true
	return b.flushIfFull()
}

// readWhole reads r to its end if it holds at most queueWholeMax bytes: whole says so.
// Otherwise it returns what it read, to be read again before the rest of r.
func readWhole(r io.Reader, pre *Sum) (content []byte, whole bool, err error) {
	if pre != nil && pre.size <= queueWholeMax {
		content = make([]byte, pre.size)
		if _, err := io.ReadFull(r, content); err != nil {
			if err == io.ErrUnexpectedEOF || err == io.EOF {
				err = errSumSize
			}
			return nil, false, err
		}
		// The content must end here, as its sum says.
		switch _, err := io.ReadFull(r, make([]byte, 1)); err {
		case io.EOF:
			return content, true, nil
		case nil:
			return nil, false, errSumSize
		default:
			return nil, false, err
		}
	}
	content, err = io.ReadAll(io.LimitReader(r, queueWholeMax+1))
	if err != nil {
		return nil, false, err
	}
	return content, len(content) <= queueWholeMax, nil
}

// queueFile queues new file name holding content, of sum pre if not nil, and returns its size.
func (b *Batch) queueFile(name string, content []byte, pre *Sum) (int64, error) {
	if pre != nil && pre.size != int64(len(content)) {
		return 0, errSumSize
	}
	if err := b.makeRoom(name); err != nil {
		return 0, err
	}
	blobID, err := b.newBlob()
	if err != nil {
		return 0, err
	}
	e := queued{name: name, blob: blobID, mtime: time.Now().UnixNano(), content: content}
	if pre != nil {
		e.sum, e.state = pre.hex, pre.state
	} else {
		s, err := SumOf(content)
		if err != nil {
			return 0, err
		}
		e.sum, e.state = s.hex, s.state
	}
	if b.s.x.objects != nil {
		for off := 0; off+ChunkSize <= len(content); off += ChunkSize {
			e.refs = append(e.refs, b.queueObject(content[off:off+ChunkSize]))
		}
	}
	b.q.names[name] = true
	b.q.entries = append(b.q.entries, e)
	b.q.bytes += int64(len(content))
	return int64(len(content)), b.flushIfFull()
}

// queueObject queues the put of a full chunk, unless the batch has put it already, and
// returns its hash.
func (b *Batch) queueObject(data []byte) string {
	p := b.objectPuts()
	sum := blob.Sum(data)
	if !p.done[sum] {
		p.done[sum] = true
		b.q.objects = append(b.q.objects, objectChunk{sum: sum, data: data})
	}
	return sum
}

// makeRoom writes the queue if it holds name already, so that the second entry of a name
// meets the first in the database, as it would one at a time.
func (b *Batch) makeRoom(name string) error {
	if b.q.names == nil {
		b.q.names = map[string]bool{}
	}
	if b.q.names[name] {
		return b.flush()
	}
	return nil
}

func (b *Batch) flushIfFull() error {
	if len(b.q.entries) >= queueEntries || b.q.bytes >= queueBytes {
		return b.flush()
	}
	return nil
}

// flush hands the queue over to a goroutine that writes it (see write), once the queue
// handed over before is written, and returns its error, if any. The writer then reads and
// queues the next entries while the database works on these: a batch's time is no longer
// the sum of its reading and of its statements. Only that goroutine uses the batch's
// transaction until settle returns.
func (b *Batch) flush() error {
	if err := b.settle(); err != nil {
		return err
	}
	q := b.q
	b.q = queue{names: q.names}
	clear(b.q.names)
	if len(q.entries) == 0 && len(q.objects) == 0 {
		return nil
	}
	done := make(chan error, 1)
	b.writing = done
	go func() { done <- b.write(q) }()
	return nil
}

// settle waits for the queue being written, if any, and returns its error.
func (b *Batch) settle() error {
	if b.writing == nil {
		return nil
	}
	err := <-b.writing
	b.writing = nil
	return err
}

// flushNow writes the queue and waits until it is written: the transaction is then the
// caller's again.
func (b *Batch) flushNow() error {
	if err := b.flush(); err != nil {
		return err
	}
	return b.settle()
}

// write writes q: the objects' rows (then their puts start), the nodes, the chunks of the
// files inserted, and then, one at a time, the entries whose names were taken.
func (b *Batch) write(q queue) error {
	if len(q.objects) > 0 {
		if err := b.upsertObjects(q.objects); err != nil {
			return err
		}
		if err := b.objectPuts().start(q.objects); err != nil {
			return err
		}
	}
	if len(q.entries) == 0 {
		return nil
	}
	inserted, err := b.unnestNodes(q.entries)
	if err != nil {
		return err
	}
	err = b.copyChunks(q.entries, inserted)
	if err == errNoCopy {
		err = b.insertChunks(q.entries, inserted)
	}
	if err != nil {
		return err
	}
	b.s.seen.forget() // in a journal's change set, what it looked at has changed
	for _, e := range q.entries {
		switch {
		case inserted[e.name] && e.dir:
			b.files++
		case inserted[e.name]:
			size := int64(len(e.content))
			b.files++
			b.bytes += size
			b.maxFile = max(b.maxFile, size)
		case e.dir:
			if err := b.existingDir(e.name); err != nil {
				return err
			}
		default:
			if _, err := b.s.write(b.t, e.name, e.content, nil, store.WriteOptions{Mode: store.Replace}); err != nil {
				return pathErr("write", e.name, err)
			}
		}
	}
	return nil
}

// existingDir checks that what holds name, which a directory was to take, is a directory.
func (b *Batch) existingDir(name string) error {
	n, err := b.s.get(b.t, name, "")
	switch {
	case err != nil:
		return pathErr("mkdir", name, err)
	case n == nil || !n.dir:
		return pathErr("mkdir", name, fs.ErrExist)
	}
	return nil
}

// values returns rows of n placeholders each, numbered from 1: "($1, $2), ($3, $4)".
func values(rows, n int) string {
	var sb strings.Builder
	p := 1
	for r := range rows {
		if r > 0 {
			sb.WriteString(", ")
		}
		sb.WriteByte('(')
		for c := range n {
			if c > 0 {
				sb.WriteString(", ")
			}
			sb.WriteByte('$')
			sb.WriteString(strconv.Itoa(p))
			p++
		}
		sb.WriteByte(')')
	}
	return sb.String()
}

// upsertObjects upserts the rows of objects in llmfs_objects, locking them until the commit,
// in the order of their hashes (as every writer), before their puts start.
func (b *Batch) upsertObjects(objects []objectChunk) error {
	sums := make([]string, len(objects))
	for i, o := range objects {
		sums[i] = o.sum
	}
	slices.Sort(sums)
	now := time.Now().UnixNano()
	for part := range slices.Chunk(sums, rowsPerInsert) {
		args := make([]any, 0, 2*len(part))
		for _, s := range part {
			args = append(args, s, now)
		}
		q := `INSERT INTO llmfs_objects (hash, seen) VALUES ` + values(len(part), 2) +
			` ON CONFLICT (hash) DO UPDATE SET seen = excluded.seen`
		if _, err := b.t.q.ExecContext(b.ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// insertChunks inserts the chunk rows of the files of entries inserted: the content itself,
// or, for a full chunk kept in object storage, its hash. It is the way without COPY (a
// program that registered PostgreSQL's driver otherwise than by store/sql/postgres).
func (b *Batch) insertChunks(entries []queued, inserted map[string]bool) error {
	var args []any
	rows := 0
	send := func() error {
		if rows == 0 {
			return nil
		}
		q := `INSERT INTO llmfs_chunks (blob, seq, data, ref) VALUES ` + values(rows, 4)
		_, err := b.t.q.ExecContext(b.ctx, q, args...)
		args, rows = args[:0], 0
		return err
	}
	err := eachChunk(entries, inserted, func(blob, seq int64, data []byte, ref any) error {
		args = append(args, blob, seq, data, ref)
		if rows++; rows == rowsPerInsert {
			return send()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return send()
}

// eachChunk calls fn with each chunk row of the files of entries inserted, in order: its
// content, or, for a full chunk kept in object storage, an empty content and its hash as
// ref. It stops at fn's first error.
func eachChunk(entries []queued, inserted map[string]bool, fn func(blob, seq int64, data []byte, ref any) error) error {
	for _, e := range entries {
		if e.dir || !inserted[e.name] {
			continue
		}
		for seq, off := int64(0), 0; off < len(e.content); seq, off = seq+1, off+ChunkSize {
			c := e.content[off:min(off+ChunkSize, len(e.content))]
			var ref any
			if int(seq) < len(e.refs) {
				ref, c = e.refs[seq], []byte{}
			}
			if err := fn(e.blob, seq, c, ref); err != nil {
				return err
			}
		}
	}
	return nil
}
