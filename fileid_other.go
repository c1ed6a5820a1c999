//go:build !linux

package llmfs

import "io/fs"

// sysIdentity returns zeros: outside Linux the identity is size and modification time.
func sysIdentity(fs.FileInfo) (ino uint64, ctime int64) { return 0, 0 }
