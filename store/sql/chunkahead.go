package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// chunksAhead is how many chunks one query fetches when a file is read sequentially past
// its first chunk (512 KiB at 64 KiB a chunk). A grep of the Go tree reads 267 files of
// more than one chunk, 63 MiB in about 1,000 chunks; one query per chunk was a round trip
// each on PostgreSQL.
const chunksAhead = 8

// An aheadChunk is a chunk fetched ahead of its reading: its bytes, or, for a chunk kept in
// object storage, the fetch under way (done closes when data or err is set).
type aheadChunk struct {
	data []byte
	err  error
	done chan struct{} // nil: data was there at once
}

func (c *aheadChunk) wait() ([]byte, error) {
	if c.done != nil {
		<-c.done
	}
	return c.data, c.err
}

// chunks returns how many chunks the file's content has.
func (f *file) chunks() int64 { return (f.info.Size() + ChunkSize - 1) / ChunkSize }

// nextChunk returns chunk seq from the chunks fetched ahead, if it is the next of them,
// waiting for its object if it is still on its way.
func (f *file) nextChunk(seq int64) ([]byte, bool, error) {
	if len(f.ahead) == 0 || seq != f.seq+1 {
		f.stopAhead()
		return nil, false, nil
	}
	c := f.ahead[0]
	f.ahead[0] = nil
	f.ahead = f.ahead[1:]
	data, err := c.wait()
	if err != nil {
		return nil, true, pathErr("read", f.name, err)
	}
	return data, true, nil
}

// readAhead fetches chunks seq to seq+chunksAhead-1 (those the file has) in one query and
// returns chunk seq, keeping the others for nextChunk. A chunk missing from the rows (the
// file was replaced or removed since it was opened) is nil, which setChunk reports.
//
// Chunks kept in object storage are fetched at once, in parallel, each checked against its
// hash: while one is searched the next are on their way, instead of one request at a time
// (a round trip each). What is in flight is bounded by the file's batch, chunksAhead
// chunks, and one batch per file being read; closing the file, or reading elsewhere in it,
// cancels the fetches.
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
	got := make([]*aheadChunk, hi-seq)
	for i := range got {
		got[i] = &aheadChunk{}
	}
	f.stopAhead()
	ctx, cancel := context.WithCancel(f.ctx)
	f.cancelAhead = cancel
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
		c := got[at-seq]
		if !ref.Valid || ref.String == "" {
			c.data = t.ownBlob(raw)
			continue
		}
		c.done = make(chan struct{})
		f.fetching.Add(1)
		go func() {
			defer f.fetching.Done()
			defer close(c.done)
			c.data, c.err = f.s.x.chunkData(ctx, nil, ref)
		}()
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, pathErr("read", f.name, err)
	}
	f.ahead = got[1:]
	data, err := got[0].wait()
	if err != nil {
		return nil, pathErr("read", f.name, err)
	}
	return data, nil
}

// stopAhead drops the chunks fetched ahead and cancels and waits for the fetches still
// under way, so none outlives the file or a read elsewhere in it.
func (f *file) stopAhead() {
	f.ahead = nil
	if f.cancelAhead != nil {
		f.cancelAhead()
		f.cancelAhead = nil
	}
	f.fetching.Wait()
}

// aheadState is the part of a file that reads ahead.
type aheadState struct {
	ahead       []*aheadChunk // the chunks after seq, fetched with it (readAhead)
	cancelAhead context.CancelFunc
	fetching    sync.WaitGroup
}
