//go:build !unix && !js && !wasip1

package osdir

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
)

// rootDir is a [store.DirHandle] on a system without openat (Windows): an [os.Root],
// opened relative to its parent's. Each name is looked at without following it before it
// is opened, and a symbolic link refused; a link swapped in between the look and the open
// is followed by the os.Root, but never out of the directory it was opened from.
type rootDir struct {
	s    *Store
	name string
	r    *os.Root
}

// openRootDir opens the store's root: its os.Root, opened again at ".", or in relaxed
// mode the directory by its path.
func (s *Store) openRootDir() (*rootDir, error) {
	var r *os.Root
	var err error
	if s.root != nil {
		r, err = s.root.OpenRoot(".")
	} else {
		r, err = os.OpenRoot(s.dir)
	}
	if err != nil {
		return nil, err
	}
	return &rootDir{s: s, name: ".", r: r}, nil
}

// noLinks fails with [store.ErrSymlink] if an element of name below d is a symbolic link,
// and with the lstat's error if one cannot be looked at.
func (d *rootDir) noLinks(op, name string) error {
	at := ""
	for elem := range splitName(name) {
		at = joinName(at, elem)
		fi, err := d.r.Lstat(at)
		if err != nil {
			return dirErr(op, d.name, name, err, false)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return dirErr(op, d.name, name, fs.ErrInvalid, true)
		}
	}
	return nil
}

func (d *rootDir) OpenDir(name string) (store.DirHandle, error) {
	if err := d.noLinks("opendir", name); err != nil {
		return nil, err
	}
	r, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, dirErr("opendir", d.name, name, err, false)
	}
	return &rootDir{s: d.s, name: joinName(d.name, name), r: r}, nil
}

func (d *rootDir) Open(name string) (io.ReadCloser, error) {
	if err := d.noLinks("open", name); err != nil {
		return nil, err
	}
	f, err := d.r.Open(name)
	if err != nil {
		return nil, dirErr("open", d.name, name, err, false)
	}
	return f, nil
}

func (d *rootDir) ModTime(name string) (time.Time, error) {
	if err := d.noLinks("stat", name); err != nil {
		return time.Time{}, err
	}
	fi, err := d.r.Lstat(name)
	if err != nil {
		return time.Time{}, dirErr("stat", d.name, name, err, false)
	}
	return fi.ModTime(), nil
}

func (d *rootDir) ReadDir(anyOrder bool) ([]fs.DirEntry, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, dirErr("readdir", d.name, ".", err, false)
	}
	des, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, dirErr("readdir", d.name, ".", err, false)
	}
	return hideOwn(sortEntries(des)), nil
}

func (d *rootDir) Close() error { return d.r.Close() }

// splitName yields the elements of a store name; "." has none.
func splitName(name string) func(func(string) bool) {
	return func(yield func(string) bool) {
		if name == "." {
			return
		}
		for elem := range strings.SplitSeq(name, "/") {
			if !yield(elem) {
				return
			}
		}
	}
}
