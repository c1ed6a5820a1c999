package osdir

import (
	"encoding/binary"
	"errors"
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// On Linux the intent log's header is mapped into memory (MAP_SHARED): an append reads
// and raises it with two loads and two stores instead of a pread and a pwrite, two of the
// five system calls an append made (the others: the lock, the record's pwrite, the
// unlock). The mapping shows the page cache itself, so every process that has the log
// open, mapped or not, sees one header, and a store survives a kill -9 of its process as
// a pwrite does. The header is read and written under the log's lock, as before.
//
// A mapped page faults (SIGBUS) where the file is shorter than the header, which only a
// hand from outside does (llmfs never truncates below the header once it holds one):
// such a fault is recovered as an error of the journal, not a crash.

// errHeaderGone reports a log file cut below its header from outside.
var errHeaderGone = errors.New("intent log shorter than its header")

// mapHeader maps f's header; nil when it cannot (the caller then reads and writes it with
// pread and pwrite).
func mapHeader(f *os.File) []byte {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var b []byte
	rc.Control(func(fd uintptr) {
		b, err = unix.Mmap(int(fd), 0, logHead, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	})
	if err != nil {
		return nil
	}
	return b
}

func unmapHeader(b []byte) {
	if b != nil {
		unix.Munmap(b)
	}
}

// readMapped returns the next ID and the committed end from a mapped header.
func readMapped(b []byte) (next, end int64, err error) {
	defer faultAsError(debug.SetPanicOnFault(true), &err)
	return int64(binary.LittleEndian.Uint64(b[8:])), int64(binary.LittleEndian.Uint64(b[16:])), nil
}

// writeMapped writes the next ID and the end to a mapped header, the ID first: a process
// killed between the two stores leaves IDs skipped, never given out twice (the end, and
// so the record, not yet committed).
func writeMapped(b []byte, next, end int64) (err error) {
	defer faultAsError(debug.SetPanicOnFault(true), &err)
	binary.LittleEndian.PutUint64(b[8:], uint64(next))
	binary.LittleEndian.PutUint64(b[16:], uint64(end))
	return nil
}

// faultAsError, deferred by a function that set the goroutine's panic on fault (old being
// what it was), restores it and turns a fault on the mapping into errHeaderGone. Nothing
// else in such a function panics.
func faultAsError(old bool, err *error) {
	debug.SetPanicOnFault(old)
	if recover() != nil {
		*err = errHeaderGone
	}
}
