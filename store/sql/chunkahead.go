package sqlstore

import (
	"database/sql"
	"errors"
)

// chunksAhead is how many chunks one query fetches when a file is read sequentially past
// its first chunk (512 KiB at 64 KiB a chunk). A grep of the Go tree reads 267 files of
// more than one chunk, 63 MiB in about 1,000 chunks; one query per chunk was a round trip
// each on PostgreSQL.
const chunksAhead = 8

// chunks returns how many chunks the file's content has.
func (f *file) chunks() int64 { return (f.info.Size() + ChunkSize - 1) / ChunkSize }

// nextChunk returns chunk seq from the chunks fetched ahead, if it is the next of them.
func (f *file) nextChunk(seq int64) ([]byte, bool) {
	if len(f.ahead) == 0 || seq != f.seq+1 {
		f.ahead = nil
		return nil, false
	}
	data := f.ahead[0]
	f.ahead = f.ahead[1:]
	return data, true
}

// readAhead fetches chunks seq to seq+chunksAhead-1 (those the file has) in one query and
// returns chunk seq, keeping the others for nextChunk. A chunk missing from the rows (the
// file was replaced or removed since it was opened) is nil, which setChunk reports.
func (f *file) readAhead(seq int64) ([]byte, error) {
	hi := min(seq+chunksAhead, f.chunks())
	f.s.chunkReads.Add(hi - seq)
	f.s.chunkQueries.Add(1)
	t := f.s.read(f.ctx)
	rows, err := t.query(`SELECT seq, data, ref FROM llmfs_chunks WHERE blob = ? AND seq >= ? AND seq < ?`, f.blob, seq, hi)
	if err != nil {
		return nil, pathErr("read", f.name, err)
	}
	defer rows.Close()
	got := make([][]byte, hi-seq)
	for rows.Next() {
		var at int64
		var raw sql.RawBytes
		var ref sql.NullString
		if err := rows.Scan(&at, &raw, &ref); err != nil {
			return nil, pathErr("read", f.name, err)
		}
		if at < seq || at >= hi {
			continue
		}
		data, err := f.s.x.chunkData(f.ctx, t.ownBlob(raw), ref)
		if err != nil {
			return nil, pathErr("read", f.name, err)
		}
		got[at-seq] = data
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, pathErr("read", f.name, err)
	}
	f.ahead = got[1:]
	return got[0], nil
}
