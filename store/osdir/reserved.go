//go:build !js && !wasip1

package osdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmfs/llmfs/store"
)

var _ store.Reserver = (*Store)(nil)

// CacheDir returns the host directory where llmfs keeps what it keeps for itself: the
// metadata, journal and intent log of host directories, their line indexes and the review
// layers. It is $LLMFS_CACHE_DIR, or else llmfs under the user's cache directory
// ([os.UserCacheDir], e.g. ~/.cache/llmfs).
func CacheDir() (string, error) {
	if dir := os.Getenv("LLMFS_CACHE_DIR"); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no directory for llmfs metadata: %w", err)
	}
	return filepath.Join(cache, "llmfs"), nil
}

// Reserved implements [store.Reserver]: the store name of the cache directory ([CacheDir])
// when it lies inside the store's directory, "." when the store's directory lies inside it.
// The journal of a workspace rooted at the home directory would otherwise be the agent's
// to read, overwrite or delete.
func (s *Store) Reserved() []string {
	if s.reserved == "" {
		return nil
	}
	return []string{s.reserved}
}

// reservedName returns the store name of the cache directory, as [Store.Reserved] says it,
// or "" when the cache and the store's directory do not overlap. The cache is identified
// by its real path (its symbolic links resolved), so it is found whatever it is called
// by; should it not exist yet, by the real path of its longest existing parent.
func reservedName(dir string) string {
	cache, err := CacheDir()
	if err != nil {
		return ""
	}
	real, err := realPath(cache)
	if err != nil {
		return ""
	}
	if rel, ok := below(dir, real); ok {
		return rel
	}
	if _, ok := below(real, dir); ok {
		return "." // the store lies inside the cache
	}
	return ""
}

// realPath resolves the symbolic links of the absolute form of p; of a path that does not
// exist, its longest existing prefix, with the missing elements joined to the result.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var missing []string
	real, err := filepath.EvalSymlinks(abs)
	for errors.Is(err, fs.ErrNotExist) && filepath.Dir(abs) != abs {
		missing = append(missing, filepath.Base(abs))
		abs = filepath.Dir(abs)
		real, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		real = filepath.Join(real, missing[i])
	}
	return real, nil
}

// below reports whether the host path p is dir or below it, compared by element, and its
// slash-separated name relative to dir.
func below(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
