package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

// A file reads a stored file chunk by chunk, keeping the last chunk it fetched. Like any
// [fs.File] it is not safe for concurrent use.
type file struct {
	s      *Store
	ctx    context.Context
	name   string
	blob   int64  // content id
	hash   string // the content's hash, which finds it when the journal keeps it (blob 0)
	info   *store.Entry
	off    int64
	seq    int64 // index of the cached chunk, -1 for none
	data   []byte
	closed bool
	aheadState
}

// setChunk caches data as chunk seq, checking it holds what the file's size says it should.
func (f *file) setChunk(seq int64, data []byte) error {
	want := min(int64(ChunkSize), f.info.Size()-seq*ChunkSize)
	if int64(len(data)) < want {
		if data == nil {
			// The file was replaced or removed since it was opened: its chunks are gone.
			return pathErr("read", f.name, store.ErrChanged)
		}
		return pathErr("read", f.name, fmt.Errorf("chunk %d holds %d bytes, want %d: %w", seq, len(data), want, io.ErrUnexpectedEOF))
	}
	// An append since Open may have grown the last chunk: read only what was there.
	f.seq, f.data = seq, data[:want]
	return nil
}

func (f *file) chunk(seq int64) ([]byte, error) {
	if seq == f.seq {
		return f.data, nil
	}
	if data, ok, err := f.nextChunk(seq); ok {
		if err != nil {
			return nil, err
		}
		if err := f.setChunk(seq, data); err != nil {
			return nil, err
		}
		return f.data, nil
	}
	if f.blob != 0 && seq == f.seq+1 && seq+1 < f.chunks() {
		// Read sequentially: fetch the next chunks with this one.
		data, err := f.readAhead(seq)
		if err != nil {
			return nil, err
		}
		if err := f.setChunk(seq, data); err != nil {
			return nil, err
		}
		return f.data, nil
	}
	f.s.chunkReads.Add(1)
	f.s.chunkQueries.Add(1)
	var data []byte
	var err error
	var ref sql.NullString
	if f.blob == 0 {
		// Content the journal's blobs keep, one chunk (see writeKept).
		err = f.s.read(f.ctx).queryOne(`SELECT data FROM llmfs_jblobs WHERE hash = ? AND ? = 0`, []any{f.hash, seq}, &data)
	} else {
		err = f.s.read(f.ctx).queryOne(`SELECT data, ref FROM llmfs_chunks WHERE blob = ? AND seq = ?`, []any{f.blob, seq}, &data, &ref)
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, pathErr("read", f.name, err)
	}
	if data, err = f.s.x.chunkData(f.ctx, data, ref); err != nil {
		return nil, pathErr("read", f.name, err)
	}
	if err := f.setChunk(seq, data); err != nil {
		return nil, err
	}
	return f.data, nil
}

// ReadAt implements [io.ReaderAt].
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if off < 0 {
		return 0, pathErr("read", f.name, fs.ErrInvalid)
	}
	n := 0
	for n < len(p) {
		if off >= f.info.Size() {
			return n, io.EOF
		}
		data, err := f.chunk(off / ChunkSize)
		if err != nil {
			return n, err
		}
		c := copy(p[n:], data[off%ChunkSize:])
		n += c
		off += int64(c)
	}
	return n, nil
}

// Read implements [io.Reader].
func (f *file) Read(p []byte) (int, error) {
	if f.closed {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if len(p) == 0 {
		return 0, nil
	}
	n, err := f.ReadAt(p, f.off)
	f.off += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}

// Seek implements [io.Seeker].
func (f *file) Seek(offset int64, whence int) (int64, error) {
	if f.closed {
		return 0, pathErr("seek", f.name, fs.ErrClosed)
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += f.info.Size()
	default:
		return 0, pathErr("seek", f.name, fs.ErrInvalid)
	}
	if offset < 0 {
		return 0, pathErr("seek", f.name, fs.ErrInvalid)
	}
	f.off = offset
	return offset, nil
}

// WriteTo implements [io.WriterTo], so io.Copy moves whole chunks.
func (f *file) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for f.off < f.info.Size() {
		if f.closed {
			return total, pathErr("read", f.name, fs.ErrClosed)
		}
		data, err := f.chunk(f.off / ChunkSize)
		if err != nil {
			return total, err
		}
		n, err := w.Write(data[f.off%ChunkSize:])
		f.off += int64(n)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *file) Close() error {
	f.stopAhead()
	f.closed, f.data = true, nil
	return nil
}
