//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmfs/llmfs/store"
)

var _ store.Resolver = (*Store)(nil)

// RealName implements [store.Resolver]. It follows the symbolic links of
// name on the host, dangling ones included; when name does not exist, the longest existing
// prefix is resolved and the rest appended, so the answer also covers a file about to be
// created.
func (s *Store) RealName(ctx context.Context, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "realname", Path: name, Err: store.ErrInvalidName}
	}
	if s.plain(name) {
		return name, nil
	}
	host := s.HostPath(name)
	rest := ""
	for hops := 0; hops < 255; hops++ {
		real, err := filepath.EvalSymlinks(host)
		if err == nil {
			if rest != "" {
				real = filepath.Join(real, rest)
			}
			rel, err := filepath.Rel(s.dir, real)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
				return "", &fs.PathError{Op: "realname", Path: name, Err: store.ErrEscape}
			}
			return filepath.ToSlash(rel), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fixErr("realname", name, err)
		}
		// A dangling link: go on from its target.
		if fi, lerr := os.Lstat(host); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, rerr := os.Readlink(host)
			if rerr != nil {
				return "", fixErr("realname", name, rerr)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(host), target)
			}
			host = target
			continue
		}
		parent := filepath.Dir(host)
		if parent == host {
			return name, nil
		}
		rest = filepath.Join(filepath.Base(host), rest)
		host = parent
	}
	return "", &fs.PathError{Op: "realname", Path: name, Err: fmt.Errorf("%w: too many symbolic links", store.ErrInvalidName)}
}

// plain reports whether none of name's elements is a symbolic link, so that it is its own
// real name. The store's directory is known to be real (see [New]), so only the elements
// below it are looked at: one lstat each, where [filepath.EvalSymlinks] looks at every
// element of the host path. A read checks the real name of its file for the deny rules,
// and this was a third of its cost. An element that does not exist ends the walk: nothing
// below it is a link either, so a name about to be made (a create, a lookup that finds
// nothing: most of what a git clone in a mount asks) is plain too, where it took
// EvalSymlinks' walk of the whole host path and its retries.
func (s *Store) plain(name string) bool {
	if name == "." {
		return true
	}
	host := s.dir
	for elem := range strings.SplitSeq(name, "/") {
		host = filepath.Join(host, elem)
		fi, err := os.Lstat(host)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return true
		}
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
	}
	return true
}
