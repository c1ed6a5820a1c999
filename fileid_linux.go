package llmfs

import (
	"io/fs"
	"syscall"
)

// hostIdentity returns the inode and change time (ns) of a host file, and whether fi is one.
func hostIdentity(fi fs.FileInfo) (ino uint64, ctime int64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Ino, st.Ctim.Nano(), true
}
