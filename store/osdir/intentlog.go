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
// The file starts with a header (a magic and the next change ID to give out), followed by
// records (intentrec.go). Every process that opens the directory's journal appends to the
// same log; an exclusive flock is held while a record is numbered and written, and while the
// log is folded and truncated, so that IDs increase in the order of the records, two
// processes never give out the same ID, and a fold never truncates a record it did not
// read. The header's counter is raised before the record is written: a writer killed in
// between leaves a gap in the IDs, never a duplicate. (Where flock is missing, outside
// Unix, only the goroutines of one process are kept apart.)

const (
	logMagic = "LLMFSIL1"
	logHead  = 16 // the magic, and the next ID (8 bytes, little endian)
	// foldBytes is the size past which a log is folded after a change set: a few thousand
	// small changes, so that it never grows without bound between readings.
	foldBytes = 1 << 20
)

type intentLog struct {
	mu  sync.Mutex // flock is per open file: this process's goroutines take turns here
	f   *os.File   // opened O_APPEND: records are written here
	hdr *os.File   // the same file, for the header
	buf []byte     // the record being encoded, under mu
	// appended counts the bytes this process appended since it last folded: past
	// foldBytes it folds (each process folds what it appends, so the log stays within a
	// few times foldBytes without a system call to ask its size).
	appended int64
}

// openIntentLog opens (creating it if need be) the log at path; seq returns the highest ID
// the database holds, to number from when the log has no header yet.
func openIntentLog(path string, seq func() (int64, error)) (*intentLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	hdr, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &intentLog{f: f, hdr: hdr}
	if err := l.initHeader(seq); err != nil {
		l.close()
		return nil, fmt.Errorf("intent log %s: %w", path, err)
	}
	return l, nil
}

func (l *intentLog) close() error {
	err := l.f.Close()
	l.hdr.Close()
	return err
}

// lock takes the log for this goroutine, in this process and against other processes.
func (l *intentLog) lock() (unlock func()) {
	l.mu.Lock()
	flockExclusive(l.f)
	return func() {
		funlock(l.f)
		l.mu.Unlock()
	}
}

// initHeader writes the header of a new log (or one whose header is damaged), numbering
// from above both the database's IDs and any record the log holds.
func (l *intentLog) initHeader(seq func() (int64, error)) error {
	defer l.lock()()
	var h [logHead]byte
	n, err := l.hdr.ReadAt(h[:], 0)
	if n == logHead && string(h[:8]) == logMagic {
		return nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	top, err := seq()
	if err != nil {
		return err
	}
	if n == logHead {
		// Damaged: keep the records, number above them.
		data, err := l.read()
		if err != nil {
			return err
		}
		scanRecords(data, func(r *intentRecord) {
			for _, c := range r.Changes {
				top = max(top, c.ID)
			}
		})
	} else if err := l.hdr.Truncate(0); err != nil { // a header torn as it was created
		return err
	}
	copy(h[:], logMagic)
	binary.LittleEndian.PutUint64(h[8:], uint64(top+1))
	_, err = l.hdr.WriteAt(h[:], 0)
	return err
}

// add numbers r's changes, joining them to change set *set (starting it at the first
// change when *set is 0), and appends r in one write. It reports whether the log is due
// for folding.
func (l *intentLog) add(r *intentRecord, set *int64) (bool, error) {
	defer l.lock()()
	now := time.Now()
	r.Time = now
	if len(r.Changes) > 0 {
		var b [8]byte
		if _, err := l.hdr.ReadAt(b[:], 8); err != nil {
			return false, err
		}
		first := int64(binary.LittleEndian.Uint64(b[:]))
		binary.LittleEndian.PutUint64(b[:], uint64(first+int64(len(r.Changes))))
		if _, err := l.hdr.WriteAt(b[:], 8); err != nil {
			return false, err
		}
		if *set == 0 {
			*set = first
		}
		for i, c := range r.Changes {
			c.ID, c.Set, c.Time, c.Actor, c.State = first+int64(i), *set, now, r.Actor, store.Pending
		}
	}
	r.Set = *set
	l.buf = appendRecord(l.buf[:0], r)
	if _, err := l.f.Write(l.buf); err != nil {
		return false, err
	}
	l.appended += int64(len(l.buf))
	if cap(l.buf) > 1<<20 {
		l.buf = nil // do not keep a large change's content around
	}
	return l.appended > foldBytes, nil
}

// read returns the records' bytes; the caller holds the lock.
func (l *intentLog) read() ([]byte, error) {
	fi, err := l.hdr.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() <= logHead {
		return nil, nil
	}
	data := make([]byte, fi.Size()-logHead)
	if _, err := l.hdr.ReadAt(data, logHead); err != nil {
		return nil, err
	}
	return data, nil
}

// fold hands the records to apply and, once apply has kept them, truncates the log to its
// header. Appends wait meanwhile. A crash between the two has the same records folded
// again, which apply must take (the database's fold replaces what it holds).
func (l *intentLog) fold(apply func(data []byte) error) error {
	defer l.lock()()
	data, err := l.read()
	if err != nil || len(data) == 0 {
		l.appended = 0
		return err
	}
	if err := apply(data); err != nil {
		return err
	}
	l.appended = 0
	return l.hdr.Truncate(logHead)
}
