//go:build !linux && !darwin

package llmfs

import "io/fs"

// hostIdentity reports no change time: on Windows any program may set a file's
// modification time and the system keeps no change time that Go reads, so a host file's
// metadata never stands for its content there, nor on the remaining systems.
func hostIdentity(fs.FileInfo) (ino uint64, ctime int64, ok bool) { return 0, 0, false }
