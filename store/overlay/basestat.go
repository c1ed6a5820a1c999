package overlay

import (
	"context"
	"errors"
	"io/fs"
	"path"

	"github.com/llmfs/llmfs/store"
)

// Base stats of the pending scan. Listing 1,000 pending changes stated each one's base
// file twice by name (is it large? does it hold the agent's version already?), and on a
// host base a stat by name is an open of its directory, the stat and a close: two-thirds
// of the listing's CPU (issue 40.4). Now the scan states each base file once, and where
// the base opens directories by handle (store/osdir), relative to its directory held open
// for the scan: one fstatat.

// dirLstater is a directory handle that describes a name in it without following it
// (store/osdir's).
type dirLstater interface {
	Lstat(name string) (fs.FileInfo, error)
}

// baseDirs are the base directories a pending scan holds open, by overlay name.
type baseDirs map[string]baseDirOf

// baseDirOf is a base directory of the scan: its handle, nil where the base cannot open it
// by handle (a symbolic link, a store without handles); absent, when it does not exist.
type baseDirOf struct {
	h      store.DirHandle
	absent bool
}

func (d baseDirs) close() {
	for _, b := range d {
		if b.h != nil {
			b.h.Close()
		}
	}
}

// baseStat is the base's Stat of name. During a pending scan a regular file is described
// through its directory's handle, and a file in a directory the base lacks (the agent's
// new directory) is absent at once; anything else (a symbolic link to follow, a special
// file, a failure other than absence) is asked of the base by name, as before.
func (o *Overlay) baseStat(ctx context.Context, name string) (fs.FileInfo, error) {
	d := o.baseDir(ctx, path.Dir(name))
	if d.absent {
		return nil, pathErr("stat", name, fs.ErrNotExist)
	}
	if l, ok := d.h.(dirLstater); ok {
		fi, err := l.Lstat(path.Base(name))
		if err == nil && fi.Mode().IsRegular() {
			return fi, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, rename(err, name)
		}
	}
	return o.base.Stat(ctx, name)
}

// baseDir returns the base directory dir for the scan under way, opening it the first
// time; nothing when there is no scan.
func (o *Overlay) baseDir(ctx context.Context, dir string) baseDirOf {
	if o.scan == nil {
		return baseDirOf{}
	}
	d, ok := o.scan.dirs[dir]
	if ok {
		return d
	}
	if opener, can := o.base.(store.DirOpener); can {
		h, err := opener.OpenDir(ctx, dir)
		switch {
		case err == nil:
			if _, can := h.(dirLstater); can {
				d.h = h
			} else {
				h.Close()
			}
		case errors.Is(err, fs.ErrNotExist):
			d.absent = true
		}
	}
	o.scan.dirs[dir] = d
	return d
}
