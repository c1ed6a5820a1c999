package store

import (
	"context"
	"io/fs"
	"path"
	"strings"
)

// A Symlinker is a Store that keeps symbolic links it is asked to make. A link is stored
// as written, its target unchecked (it may dangle or point anywhere); what follows a link
// is the store's resolution, which never leads outside the store (see [Resolver]).
type Symlinker interface {
	Lstater
	// Symlink makes name a symbolic link to target. name must not exist ([fs.ErrExist]);
	// its parent must. An empty target is [fs.ErrInvalid].
	Symlink(ctx context.Context, target, name string) error
	// Readlink returns the target of the link name as it was written; a name that is not a
	// link is [fs.ErrInvalid].
	Readlink(ctx context.Context, name string) (string, error)
}

// A HardLinker is a Store that can give a regular file a second name (link(2)). Only stores
// over a host directory have one; virtual stores keep one name per file.
type HardLinker interface {
	Store
	// Link makes newname a second name of the regular file oldname. newname must not
	// exist ([fs.ErrExist]).
	Link(ctx context.Context, oldname, newname string) error
}

// maxLinks bounds the links one resolution follows, as the kernel's 40 does.
const maxLinks = 40

// LinkTarget returns the store name a link at name with target leads to, or [ErrEscape]
// when it leads outside the store (an absolute target, or one that climbs above the root).
// Virtual stores, whose links are all their own, resolve them with it.
func LinkTarget(name, target string) (string, error) {
	if strings.HasPrefix(target, "/") {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: ErrEscape}
	}
	joined := path.Join(path.Dir(name), target)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: ErrEscape}
	}
	return joined, nil
}

// FollowLinks returns the name name really leads to in a virtual store: each element that
// is a link (by lstat, which reports a link without following it) is replaced by its
// target (by readlink), up to 40 links; a name that leaves the store is [ErrEscape], a
// loop [ErrInvalidName]. Missing elements are kept as they are, as [Resolver.RealName]
// does. It is for stores that hold their links themselves (store/mem, store/sql).
func FollowLinks(ctx context.Context, name string, isLink func(string) (bool, error), readlink func(string) (string, error)) (string, error) {
	if name == "." {
		return name, nil
	}
	done := "." // the resolved prefix
	rest := strings.Split(name, "/")
	hops := 0
	for len(rest) > 0 {
		cur := path.Join(done, rest[0])
		rest = rest[1:]
		link, err := isLink(cur)
		if err != nil {
			// A missing element: keep it and the rest as they are.
			return path.Join(append([]string{cur}, rest...)...), nil
		}
		if !link {
			done = cur
			continue
		}
		if hops++; hops > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: ErrInvalidName}
		}
		target, err := readlink(cur)
		if err != nil {
			return "", err
		}
		to, err := LinkTarget(cur, target)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: ErrEscape}
		}
		done = "."
		if to != "." {
			rest = append(strings.Split(to, "/"), rest...)
		}
	}
	return done, nil
}
