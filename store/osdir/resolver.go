//go:build !js && !wasip1

package osdir

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmfs/llmfs/store"
)

var _ store.Resolver = (*Store)(nil)

// RealName implements [store.Resolver]. It follows the symbolic links of name on the host;
// when name does not exist, the longest existing prefix is resolved and the rest appended.
func (s *Store) RealName(ctx context.Context, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "realname", Path: name, Err: store.ErrInvalidName}
	}
	host := s.HostPath(name)
	rest := ""
	for {
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
		parent := filepath.Dir(host)
		if parent == host || len(parent) < len(s.dir) {
			return name, nil
		}
		rest = filepath.Join(filepath.Base(host), rest)
		host = parent
	}
}
