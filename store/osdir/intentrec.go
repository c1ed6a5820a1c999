//go:build !js && !wasip1

package osdir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"
	"time"

	"github.com/llmfs/llmfs/internal/varbin"
	"github.com/llmfs/llmfs/store"
)

// The records of a host journal's intent log (see intentlog.go). Each is framed as
//
//	magic (4 bytes) | payload length (4, little endian) | CRC-32C of the payload (4) | payload
//
// so that a reader finds where a record ends without decoding it and tells a damaged record
// from a whole one by its checksum. The payload is a sequence of varints and length-prefixed byte strings:
//
//	set, time (Unix ns), actor,
//	marks: count, then (id, state) each: changes recorded earlier that settled,
//	changes: count, then (id, op, path, other, before, after, added, removed) each, a
//	  version being (kind, hash, size), added and removed the change's line counts (-1:
//	  not counted),
//	blobs: count, then each content.
//
// Records of magic LJR1, written before the journal counted lines, have no counts; they
// are read as changes not counted (a log left by an older llmfs is folded on open).

const (
	recMagic   = "LJR2"
	recMagicV1 = "LJR1" // without line counts
	recHead    = 12
	// maxRecord bounds a record's payload: a change's before and after content are at
	// most 64 MiB each (the recorder keeps no larger content).
	maxRecord = 512 << 20
)

// crcTable is made on first use: crc32's Castagnoli set-up fills its hardware tables,
// which at init cost every start of the binary (issue 40).
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// stateDropped marks a change that never happened: the fold deletes it.
const stateDropped store.State = "dropped"

// A mark settles a change recorded earlier.
type mark struct {
	ID    int64
	State store.State
}

// An intentRecord is one record of the log: the changes one Add recorded (with the marks of
// earlier changes it carries), or marks alone.
type intentRecord struct {
	Set     int64
	Time    time.Time
	Actor   string
	Marks   []mark
	Changes []*store.Change
	Blobs   [][]byte
}

// appendRecord appends the framed encoding of r to b.
func appendRecord(b []byte, r *intentRecord) []byte {
	start := len(b)
	b = append(b, recMagic...)
	b = append(b, make([]byte, 8)...)
	b = binary.AppendVarint(b, r.Set)
	b = binary.AppendVarint(b, r.Time.UnixNano())
	b = appendString(b, r.Actor)
	b = binary.AppendUvarint(b, uint64(len(r.Marks)))
	for _, m := range r.Marks {
		b = binary.AppendVarint(b, m.ID)
		b = appendString(b, string(m.State))
	}
	b = binary.AppendUvarint(b, uint64(len(r.Changes)))
	for _, c := range r.Changes {
		b = binary.AppendVarint(b, c.ID)
		b = appendString(b, c.Op)
		b = appendString(b, c.Path)
		b = appendString(b, c.Other)
		b = appendVersion(b, c.Before)
		b = appendVersion(b, c.After)
		b = appendLines(b, c.Lines)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Blobs)))
	for _, blob := range r.Blobs {
		b = binary.AppendUvarint(b, uint64(len(blob)))
		b = append(b, blob...)
	}
	payload := b[start+recHead:]
	binary.LittleEndian.PutUint32(b[start+4:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[start+8:], crc32.Checksum(payload, crcTable()))
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendVersion(b []byte, v store.Version) []byte {
	b = appendString(b, string(v.Kind))
	b = appendString(b, v.Hash)
	return binary.AppendVarint(b, v.Size)
}

func appendLines(b []byte, l store.Lines) []byte {
	if !l.Counted {
		return binary.AppendVarint(binary.AppendVarint(b, -1), -1)
	}
	return binary.AppendVarint(binary.AppendVarint(b, int64(l.Added)), int64(l.Removed))
}

var errBadRecord = errors.New("damaged intent record")

// scanRecords decodes the records in data, in order, calling fn for each whole one, and
// returns how many bytes they took. It stops at the first record that does not check,
// returning errBadRecord: the log holds only records appended whole (see intentlog.go), so
// such a record was damaged from outside, and the bytes after it are not looked into (a
// record's magic found there could lie inside a blob).
func scanRecords(data []byte, fn func(r *intentRecord)) (int, error) {
	done := 0
	for done < len(data) {
		r, n, err := nextRecord(data[done:])
		if err != nil {
			return done, fmt.Errorf("%w at byte %d of %d", errBadRecord, done, len(data))
		}
		fn(r)
		done += n
	}
	return done, nil
}

// nextRecord decodes the record at the start of data and returns it with its framed length.
func nextRecord(data []byte) (*intentRecord, int, error) {
	if len(data) < recHead || string(data[:4]) != recMagic && string(data[:4]) != recMagicV1 {
		return nil, 0, errBadRecord
	}
	n := binary.LittleEndian.Uint32(data[4:])
	if n > maxRecord || uint64(n) > uint64(len(data)-recHead) {
		return nil, 0, errBadRecord
	}
	payload := data[recHead : recHead+int(n)]
	if crc32.Checksum(payload, crcTable()) != binary.LittleEndian.Uint32(data[8:]) {
		return nil, 0, errBadRecord
	}
	r, err := decodeRecord(payload, string(data[:4]) == recMagic)
	if err != nil {
		return nil, 0, err
	}
	return r, recHead + int(n), nil
}

// decodeRecord decodes a payload, with line counts or (a record of magic LJR1) without; it
// never panics, whatever the bytes.
func decodeRecord(p []byte, counts bool) (*intentRecord, error) {
	d := decoder{varbin.NewDecoder(p)}
	r := &intentRecord{Set: d.Varint()}
	r.Time = time.Unix(0, d.Varint())
	r.Actor = d.String()
	for n := d.Count(2); n > 0 && d.Err() == nil; n-- {
		r.Marks = append(r.Marks, mark{ID: d.Varint(), State: store.State(d.String())})
	}
	for n := d.Count(9); n > 0 && d.Err() == nil; n-- {
		c := &store.Change{ID: d.Varint(), Set: r.Set, Time: r.Time, Actor: r.Actor, State: store.Pending}
		c.Op, c.Path, c.Other = d.String(), d.String(), d.String()
		c.Before, c.After = d.version(), d.version()
		if counts {
			c.Lines = d.lines()
		}
		r.Changes = append(r.Changes, c)
	}
	for n := d.Count(1); n > 0 && d.Err() == nil; n-- {
		r.Blobs = append(r.Blobs, d.Bytes())
	}
	if d.Err() != nil || d.Len() != 0 {
		return nil, errBadRecord
	}
	return r, nil
}

// decoder reads a payload: a [varbin.Decoder] that also reads versions.
type decoder struct{ *varbin.Decoder }

func (d *decoder) version() store.Version {
	return store.Version{Kind: store.Kind(d.String()), Hash: d.String(), Size: d.Varint()}
}

func (d *decoder) lines() store.Lines {
	added, removed := d.Varint(), d.Varint()
	if added < 0 || removed < 0 {
		return store.Lines{}
	}
	return store.Lines{Added: int(added), Removed: int(removed), Counted: true}
}
