package store

import (
	"context"
	"io/fs"
	"time"
)

// An AttrSetter is a Store that keeps a file's permission bits and modification time as
// they are set, not only as its writes leave them: build tools need the execute bit of what
// they link (a binary built in a mount must run) and the times `touch` and make set.
type AttrSetter interface {
	Store
	// Chmod sets the permission bits (perm&0o777) of the file or directory name.
	Chmod(ctx context.Context, name string, perm fs.FileMode) error
	// Chtimes sets the modification time of name.
	Chtimes(ctx context.Context, name string, mtime time.Time) error
}
