//go:build linux

package osdir

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/llmfs/llmfs/store"
)

// fileStamp is what tells one state of a file from another without reading it (see
// known.go); the zero value is no stamp.
type fileStamp struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime [2]int64 // seconds, nanoseconds
}

func stampOf(st *unix.Stat_t) fileStamp {
	return fileStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: int64(st.Size),
		mtime: [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, ctime: [2]int64{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}}
}

// stampFile returns the stamp of the open file f, or no stamp.
func stampFile(f *os.File) fileStamp {
	var st unix.Stat_t
	if err := fstat(int(f.Fd()), &st); err != nil {
		return fileStamp{}
	}
	return stampOf(&st)
}

// knownAt returns what the journal's last write to name left there, if st (name's lstat)
// says the file is still as that write left it.
func (s *Store) knownAt(name string, st *unix.Stat_t) (store.Version, []byte, bool) {
	f, ok := s.known.get(name, stampOf(st))
	return f.v, f.data, ok
}

// knownHash returns the hash of what the journal's last write to name left, if target
// (name itself, no link followed) described by fi is still as that write left it.
func (s *Store) knownHash(name, target string, fi fs.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || target != name {
		return "", false
	}
	f, ok := s.known.get(name, fileStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: int64(st.Size),
		mtime: [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, ctime: [2]int64{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}})
	return f.v.Hash, ok
}
