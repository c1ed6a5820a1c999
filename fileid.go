package llmfs

import (
	"io/fs"
	"time"
)

// fileID is what a file's metadata says of its identity: its size and modification time
// and, where the store is the host's and the system gives them, its inode and change time.
// Two equal fileIDs of one path are taken to mean the same content. The change time is
// what makes that safe on the host: no program can set it, and any write moves it.
type fileID struct {
	size  int64
	mtime int64 // ns since the epoch
	ino   uint64
	ctime int64 // ns since the epoch; 0 when unknown
}

// racyWindow is how recently a file may have changed for its identity to stand for its
// content. A file system's clock is coarse (a few ms on Linux, seconds on some stores), so
// a file written just before a read could be written again, same size, within the same
// tick after it; such a file is hashed instead, as git treats its "racily clean" entries.
// A variable so that tests can set it to zero.
var racyWindow = 2 * time.Second

// identityOf returns fi's identity, and whether it is old enough (outside racyWindow of
// now) to stand for the content. A store's own metadata (no Sys) can, as can a host file's
// with a change time; a host file without one cannot, since any program may set the
// modification time back after a same-size write.
func identityOf(fi fs.FileInfo, now time.Time) (fileID, bool) {
	id := fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	var host bool
	id.ino, id.ctime, host = hostIdentity(fi)
	if !host && fi.Sys() != nil {
		return id, false
	}
	limit := now.Add(-racyWindow).UnixNano()
	if fi.ModTime().IsZero() || id.mtime > limit || id.ctime > limit {
		return id, false
	}
	return id, true
}
