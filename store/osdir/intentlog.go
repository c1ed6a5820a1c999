//go:build !js && !wasip1

package osdir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/llmfs/llmfs/store"
)

// A host journal records each change first in an intent log, a file beside its SQLite
// database (<hash>.intents next to <hash>.db, under the cache directory, never inside the
// root): one write(2) per change instead of a database transaction. Every so often, and
// before the journal is read, the log is folded into the database in one transaction and
// truncated.
//
// The file starts with a header (a magic, the next change ID to give out and the committed
// end of the records), followed by records (intentrec.go). Every process that opens the
// directory's journal appends to the same log; an exclusive flock is held while a record
// is numbered and written, and while the log is folded and truncated, so that IDs increase
// in the order of the records, two processes never give out the same ID, and a fold never
// truncates a record it did not read.
//
// An append writes its record at the committed end, then the header with the raised
// counter and the new end: a writer killed before the header write leaves its record past
// the end, where the next append overwrites it and the fold never looks, and its IDs are
// given out again (the change was never made: it is made only after the append returns).
// So the fold reads exactly the records appended whole, never scanning for a record's
// start, which could lie inside a torn record's content (a journaled copy of a log).
// (On Windows the lock is LockFileEx on one byte past any record; where neither is there,
// only the goroutines of one process are kept apart.)

const (
	logMagic = "LLMFSIL2"
	logHead  = 24 // the magic, the next ID and the end (8 bytes each, little endian)
	// oldMagic starts a log of the first format (no end in its header, 16 bytes).
	oldMagic = "LLMFSIL1"
	oldHead  = 16
	// foldBytes is the size past which a log is folded after a change set: a few thousand
	// small changes, so that it never grows without bound between readings.
	foldBytes = 1 << 20
)

type intentLog struct {
	mu sync.Mutex // flock is per open file: this process's goroutines take turns here
	f  *os.File
	// head is the header mapped into memory (intenthead_linux.go), nil where it is read
	// and written with pread and pwrite.
	head []byte
	buf  []byte // the record being encoded, under mu
	// appended counts the bytes this process appended since it last folded: past
	// foldBytes it folds (each process folds what it appends, so the log stays within a
	// few times foldBytes).
	appended int64
}

// openIntentLog opens (creating it if need be) the log at path; seq returns the highest ID
// the database holds, to number from when the log has no header yet.
func openIntentLog(path string, seq func() (int64, error)) (*intentLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	l := &intentLog{f: f}
	if err := l.initHeader(seq); err != nil {
		l.close()
		return nil, fmt.Errorf("intent log %s: %w", path, err)
	}
	l.head = mapHeader(f) // after initHeader: the file holds a whole header from now on
	return l, nil
}

func (l *intentLog) close() error {
	l.mu.Lock() // no append reads the mapping while it goes
	unmapHeader(l.head)
	l.head = nil
	l.mu.Unlock()
	return l.f.Close()
}

// lock takes the log for this goroutine, in this process and against other processes.
// A file lock the system refuses fails the caller: going on unlocked could give another
// process's change the same ID.
func (l *intentLog) lock() (unlock func(), err error) {
	l.mu.Lock()
	if err := flockExclusive(l.f); err != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("lock %s: %w", l.f.Name(), err)
	}
	return func() {
		funlock(l.f)
		l.mu.Unlock()
	}, nil
}

// header reads the next ID and the committed end; the caller holds the lock.
func (l *intentLog) header() (next, end int64, err error) {
	if l.head != nil {
		return readMapped(l.head)
	}
	var h [logHead]byte
	if _, err := l.f.ReadAt(h[:], 0); err != nil {
		return 0, 0, err
	}
	return int64(binary.LittleEndian.Uint64(h[8:])), int64(binary.LittleEndian.Uint64(h[16:])), nil
}

// writeHeader writes the header; the caller holds the lock.
func (l *intentLog) writeHeader(next, end int64) error {
	if l.head != nil {
		return writeMapped(l.head, next, end)
	}
	var h [logHead]byte
	copy(h[:], logMagic)
	binary.LittleEndian.PutUint64(h[8:], uint64(next))
	binary.LittleEndian.PutUint64(h[16:], uint64(end))
	_, err := l.f.WriteAt(h[:], 0)
	return err
}

// initHeader writes the header of a new log, or of one whose header is damaged or of the
// first format, numbering from above both the database's IDs and any record the log holds.
// A first-format log's whole records are moved behind the new header.
func (l *intentLog) initHeader(seq func() (int64, error)) error {
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	var h [logHead]byte
	n, err := l.f.ReadAt(h[:], 0)
	if n == logHead && string(h[:8]) == logMagic {
		end := int64(binary.LittleEndian.Uint64(h[16:]))
		if fi, err := l.f.Stat(); err != nil {
			return err
		} else if end >= logHead && end <= fi.Size() {
			return nil
		}
		// An end outside the file: damaged, renumber and keep no record.
	} else if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	top, err := seq()
	if err != nil {
		return err
	}
	var keep []byte
	if n >= oldHead && string(h[:8]) == oldMagic {
		fi, err := l.f.Stat()
		if err != nil {
			return err
		}
		data := make([]byte, fi.Size()-oldHead)
		if _, err := l.f.ReadAt(data, oldHead); err != nil {
			return err
		}
		good, _ := scanRecords(data, func(r *intentRecord) {
			for _, c := range r.Changes {
				top = max(top, c.ID)
			}
		})
		keep = data[:good]
		top = max(top, int64(binary.LittleEndian.Uint64(h[8:]))-1)
	}
	// To the header's length, not to 0: another process may have the header mapped
	// (intenthead_linux.go), and reading it in a file shorter than that faults.
	if err := l.f.Truncate(logHead); err != nil {
		return err
	}
	if len(keep) > 0 {
		if _, err := l.f.WriteAt(keep, logHead); err != nil {
			return err
		}
	}
	return l.writeHeader(top+1, logHead+int64(len(keep)))
}

// add numbers r's changes, joining them to change set *set (starting it at the first
// change when *set is 0), and appends r at the committed end. It reports whether the log
// is due for folding.
func (l *intentLog) add(r *intentRecord, set *int64) (bool, error) {
	unlock, err := l.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	now := time.Now()
	r.Time = now
	first, end, err := l.header()
	if err != nil {
		return false, err
	}
	if len(r.Changes) > 0 {
		if *set == 0 {
			*set = first
		}
		for i, c := range r.Changes {
			c.ID, c.Set, c.Time, c.Actor, c.State = first+int64(i), *set, now, r.Actor, store.Pending
		}
	}
	r.Set = *set
	l.buf = appendRecord(l.buf[:0], r)
	// Whatever lies past end (a record whose writer was killed before its header write) is
	// overwritten here; a longer one's rest stays past the new end, never read.
	if _, err := l.f.WriteAt(l.buf, end); err != nil {
		return false, err
	}
	if err := l.writeHeader(first+int64(len(r.Changes)), end+int64(len(l.buf))); err != nil {
		return false, err
	}
	l.appended += int64(len(l.buf))
	if cap(l.buf) > 1<<20 {
		l.buf = nil // do not keep a large change's content around
	}
	return l.appended > foldBytes, nil
}

// size returns the log file's size: its header, its records and any torn record's bytes
// past the committed end.
func (l *intentLog) size() (int64, error) {
	fi, err := l.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// read returns the committed records' bytes; the caller holds the lock.
func (l *intentLog) read() ([]byte, error) {
	_, end, err := l.header()
	if err != nil || end <= logHead {
		return nil, err
	}
	data := make([]byte, end-logHead)
	if _, err := l.f.ReadAt(data, logHead); err != nil {
		return nil, err
	}
	return data, nil
}

// fold hands the records to apply and, once apply has kept them, truncates the log to its
// header. Appends wait meanwhile. A crash between the two has the same records folded
// again, which apply must take (the database's fold replaces what it holds). An error
// apply returns for damaged records (after keeping those before them) is returned once
// the log is truncated.
func (l *intentLog) fold(apply func(data []byte) error) error {
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	data, err := l.read()
	if err != nil {
		return err
	}
	if len(data) == 0 {
		l.appended = 0
		return nil
	}
	applied := apply(data)
	if applied != nil && !errors.Is(applied, errBadRecord) {
		return applied
	}
	l.appended = 0
	next, _, err := l.header()
	if err != nil {
		return err
	}
	if err := l.writeHeader(next, logHead); err != nil {
		return err
	}
	if err := l.f.Truncate(logHead); err != nil {
		return err
	}
	return applied
}
