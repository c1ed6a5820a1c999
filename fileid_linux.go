package llmfs

import (
	"io/fs"
	"syscall"
)

// sysIdentity returns the inode and change time (ns) of a host file, or zeros.
func sysIdentity(fi fs.FileInfo) (ino uint64, ctime int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ino, st.Ctim.Nano()
}
