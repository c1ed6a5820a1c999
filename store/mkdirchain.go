package store

import (
	"context"
	"io/fs"
	"strings"
)

// A ChainMaker is a Store that makes a chain of new directories, each inside the one
// before, faster than one [Store.Mkdir] each: a host directory looks up every element of
// a name on each call, so making the n directories of a new deep path one by one costs
// time quadratic in n.
type ChainMaker interface {
	Store
	// MkdirChain makes dirs in order: the parent of dirs[0] exists, and each next one is
	// directly inside the one before. It stops at the first failure and returns how many
	// it made.
	MkdirChain(ctx context.Context, dirs []string) (int, error)
}

// MkdirChain makes the chain of directories dirs (see [ChainMaker]) with s's own method
// if it has one, else one [Store.Mkdir] at a time.
func MkdirChain(ctx context.Context, s Store, dirs []string) (int, error) {
	if cm, ok := s.(ChainMaker); ok {
		return cm.MkdirChain(ctx, dirs)
	}
	for i, d := range dirs {
		if err := s.Mkdir(ctx, d); err != nil {
			return i, err
		}
	}
	return len(dirs), nil
}

// ChainElem returns the last element of the directory d of a chain whose directory before
// it is prev ("" for the first), and whether d is a valid name directly inside prev. It
// looks at d's last element alone beyond a comparison with prev, so that checking a chain
// of n directories costs time linear in n, not in the sum of their lengths' work.
func ChainElem(prev, d string) (string, bool) {
	if prev == "" {
		if !fs.ValidPath(d) || d == "." {
			return "", false
		}
		return d[strings.LastIndexByte(d, '/')+1:], true
	}
	if len(d) <= len(prev)+1 || d[len(prev)] != '/' || d[:len(prev)] != prev {
		return "", false
	}
	base := d[len(prev)+1:]
	return base, fs.ValidPath(base) && base != "." && !strings.Contains(base, "/")
}
