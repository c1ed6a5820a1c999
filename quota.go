package llmfs

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// Quota bounds what a workspace may hold under its root. A zero field sets no bound; a
// negative one is invalid. A write that would pass a bound fails with [CodeQuotaExceeded]
// and writes nothing, not even the parent directories it would have created. What a
// relaxed workspace writes outside its root is not counted.
//
// The workspace learns its usage by walking the tree under its root the first time a
// write needs it (one linear walk, on a host directory relative to each parent's
// descriptor; directories more than 4096 levels deep are not counted), then keeps it up to date with its own writes (and those of its
// sessions). Changes made by others (another process, the user's editor) are not seen
// until the workspace is opened again, so on a shared host directory the bounds are
// approximate; a store that enforces quotas itself (store/sql) is exact, and its refusals
// ([store.ErrQuota]) become [CodeQuotaExceeded] too.
type Quota struct {
	// MaxBytes bounds the total size of the files under the root.
	MaxBytes int64
	// MaxFileBytes bounds the size of any one file a write leaves behind. A file already
	// larger may still be made smaller.
	MaxFileBytes int64
	// MaxFiles bounds the number of entries under the root: files, directories and
	// symbolic links, the root itself not counted.
	MaxFiles int64
}

func (q Quota) validate() error {
	if q.MaxBytes < 0 || q.MaxFileBytes < 0 || q.MaxFiles < 0 {
		return &Error{Code: CodeInvalidArgument, Msg: fmt.Sprintf("quota bounds must be 0 (none) or positive, got %+v", q)}
	}
	return nil
}

// quotaState is the usage of a workspace and the lock that makes a quota check and the
// write it admits one step. Sessions of a workspace share it.
type quotaState struct {
	q     Quota
	mu    sync.Mutex
	known bool  // bytes and files were counted
	bytes int64 // total size of files
	files int64 // entries under the root
}

func newQuotaState(q Quota) *quotaState {
	if q == (Quota{}) {
		return nil
	}
	return &quotaState{q: q}
}

// Usage returns the bytes and entries under the root as the workspace counts them (see
// [Quota]). Without a quota it counts nothing and returns zeros.
func (w *Workspace) Usage(ctx context.Context) (bytes, files int64, err error) {
	qs := w.quota
	if qs == nil {
		return 0, 0, nil
	}
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if err := w.countUsage(ctx); err != nil {
		return 0, 0, err
	}
	return qs.bytes, qs.files, nil
}

// countUsage walks the tree under the root once, until ctx is done; directories more than
// [maxTreeDepth] levels deep are not counted. The caller holds w.quota.mu.
func (w *Workspace) countUsage(ctx context.Context) error {
	qs := w.quota
	if qs.known {
		return nil
	}
	// One linear walk (see walkTree): through the store, each level's listing resolved the
	// whole path again, which made the first count of a tree 2,600 levels deep take seconds.
	var bytes, files int64
	err := walkTree(ctx, w.store, w.base, func(name string, de fs.DirEntry) bool {
		files++
		if de.Type().IsRegular() {
			fi, ok := de.(fs.FileInfo)
			if !ok {
				var err error
				if fi, err = de.Info(); err != nil {
					return false // gone since the listing
				}
			}
			bytes += fi.Size()
		}
		return true
	})
	if err != nil {
		// The root as the caller sees it: "/" in a virtual view, never the host path.
		return storeError(w.display(w.base), err)
	}
	qs.bytes, qs.files, qs.known = bytes, files, true
	return nil
}

// admitFile checks a write to the file r against the quota. size gives the file's size
// after the write from its size now (0 if it does not exist). On success the quota lock
// stays held until the caller reports the write's outcome to done, which then books the
// change if err is nil.
func (w *Workspace) admitFile(ctx context.Context, r resolved, size func(old int64) int64) (done func(err error), err error) {
	qs := w.quota
	if qs == nil || !w.counted(r.name) {
		return func(error) {}, nil
	}
	qs.mu.Lock()
	var old, added int64
	placed := true // the file's parent is, or can be made, a directory
	fi, serr := w.store.Stat(ctx, r.name)
	if serr == nil {
		old = fi.Size()
		if fi.IsDir() {
			old = 0
		}
	} else {
		var dirs int64
		dirs, placed = w.missingDirs(ctx, parentName(r.name))
		added = 1 + dirs
	}
	newSize := size(old)
	if placed {
		if err := w.admit(ctx, r.arg, old, newSize, added); err != nil {
			qs.mu.Unlock()
			return nil, err
		}
	}
	return func(err error) {
		if err == nil && qs.known {
			qs.bytes += newSize - old
			qs.files += added
		}
		qs.mu.Unlock()
	}, nil
}

// admitDirs checks the creation of the directory name and its missing parents; see
// [Workspace.admitFile] for done.
func (w *Workspace) admitDirs(ctx context.Context, p, name string) (done func(err error), err error) {
	qs := w.quota
	if qs == nil || !w.counted(name) {
		return func(error) {}, nil
	}
	qs.mu.Lock()
	added, placed := w.missingDirs(ctx, name)
	if placed {
		if err := w.admit(ctx, p, 0, 0, added); err != nil {
			qs.mu.Unlock()
			return nil, err
		}
	}
	return func(err error) {
		if err == nil && qs.known {
			qs.files += added
		}
		qs.mu.Unlock()
	}, nil
}

// removing takes the quota lock for the removal of the entry name, so that a first count
// of the usage cannot run between the removal and its booking and see it twice; done books
// the removal of size bytes if err is nil, and releases the lock.
func (w *Workspace) removing(name string) (done func(size int64, err error)) {
	qs := w.quota
	if qs == nil || !w.counted(name) {
		return func(int64, error) {}
	}
	qs.mu.Lock()
	return func(size int64, err error) {
		if err == nil && qs.known {
			qs.bytes -= size
			qs.files--
		}
		qs.mu.Unlock()
	}
}

// counted reports whether the store name lies under the root, where the quota counts
// (see [Quota]); a relaxed workspace may also reach names outside it.
func (w *Workspace) counted(name string) bool {
	return w.base == "." || name == w.base || strings.HasPrefix(name, w.base+"/")
}

// admit compares a change with the bounds: a file going from old to newSize bytes, and
// added new entries. The caller holds the quota lock.
func (w *Workspace) admit(ctx context.Context, p string, old, newSize, added int64) error {
	q := w.quota.q
	if q.MaxFileBytes > 0 && newSize > q.MaxFileBytes && newSize > old {
		return errorf(CodeQuotaExceeded, p, "quota exceeded: the file would be %d bytes, over the workspace's limit of %d bytes per file; nothing was written. Write less, or split the content over several files: %s", newSize, q.MaxFileBytes, p)
	}
	return w.admitTotal(ctx, p, newSize-old, added)
}

// admitTotal compares a change that grows the files by grow bytes and adds added entries
// (either may be negative) with the workspace's bounds. The caller holds the quota lock.
func (w *Workspace) admitTotal(ctx context.Context, p string, grow, added int64) error {
	q := w.quota.q
	if (q.MaxBytes > 0 && grow > 0) || (q.MaxFiles > 0 && added > 0) {
		if err := w.countUsage(ctx); err != nil {
			return err
		}
	}
	qs := w.quota
	if q.MaxBytes > 0 && grow > 0 && qs.bytes+grow > q.MaxBytes {
		return errorf(CodeQuotaExceeded, p, "quota exceeded: the workspace holds %d bytes of its %d-byte quota and this write needs %d more; nothing was written. Free space first (shorten files, or delete them if the mode allows): %s", qs.bytes, q.MaxBytes, grow, p)
	}
	if q.MaxFiles > 0 && added > 0 && qs.files+added > q.MaxFiles {
		return errorf(CodeQuotaExceeded, p, "quota exceeded: the workspace holds %d files and directories of its quota of %d and this would add %d; nothing was written. Reuse existing files instead: %s", qs.files, q.MaxFiles, added, p)
	}
	return nil
}

// missingDirs counts how many of the directory name and its parents do not exist yet. It
// reports false when the nearest one that exists is not a directory (or cannot be looked
// at): the operation then fails for that reason, and the quota, which has no say, must not
// hide it behind [CodeQuotaExceeded].
func (w *Workspace) missingDirs(ctx context.Context, name string) (int64, bool) {
	if name == "." || name == "" {
		return 0, true
	}
	dirs, err := w.dirsToMake(ctx, name) // by bisection: a deep path costs few looks
	return int64(len(dirs)), err == nil
}
