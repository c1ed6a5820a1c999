//go:build !js && !wasip1

package osdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/llmfs/llmfs/store"
)

var _ store.Metadata = (*Store)(nil)

// The metadata of a host directory lives outside it, so that neither the agent nor a
// listing nor the user's version control ever sees it: in one small JSON file per
// directory under $LLMFS_CACHE_DIR, or else under the user's cache directory
// (os.UserCacheDir()/llmfs, e.g. ~/.cache/llmfs), in meta/, named by a hash of the
// directory's real path. Writes to it are atomic; two processes that set keys of the same
// directory at the same moment may lose one of the two updates.

// metaFile is the JSON form of a directory's metadata.
type metaFile struct {
	Root string            `json:"root"`
	Meta map[string]string `json:"meta"`
}

// MetaPath returns the host path of the file that holds the store's metadata.
func (s *Store) MetaPath() (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(s.dir))
	return filepath.Join(dir, "meta", hex.EncodeToString(sum[:12])+".json"), nil
}

func (s *Store) loadMeta() (metaFile, string, error) {
	p, err := s.MetaPath()
	if err != nil {
		return metaFile{}, "", err
	}
	mf := metaFile{Root: s.dir, Meta: map[string]string{}}
	b, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return mf, p, nil
	case err != nil:
		return mf, p, err
	}
	var got metaFile
	if err := json.Unmarshal(b, &got); err != nil || got.Root != s.dir {
		// Unreadable, or another directory's (a hash collision): start afresh.
		return mf, p, nil
	}
	if got.Meta != nil {
		mf.Meta = got.Meta
	}
	return mf, p, nil
}

// GetMeta implements [store.Metadata].
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	mf, _, err := s.loadMeta()
	if err != nil {
		return "", &fs.PathError{Op: "getmeta", Path: key, Err: err}
	}
	v, ok := mf.Meta[key]
	if !ok {
		return "", &fs.PathError{Op: "getmeta", Path: key, Err: fs.ErrNotExist}
	}
	return v, nil
}

// SetMeta implements [store.Metadata].
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	p, err := s.MetaPath()
	if err != nil {
		return &fs.PathError{Op: "setmeta", Path: key, Err: err}
	}
	defer lockPath(p)()
	mf, p, err := s.loadMeta()
	if err != nil {
		return &fs.PathError{Op: "setmeta", Path: key, Err: err}
	}
	if value == "" {
		delete(mf.Meta, key)
	} else {
		mf.Meta[key] = value
	}
	b, err := json.MarshalIndent(mf, "", "  ")
	if err != nil {
		return &fs.PathError{Op: "setmeta", Path: key, Err: err}
	}
	if err := writeAtomic(p, b); err != nil {
		return &fs.PathError{Op: "setmeta", Path: key, Err: err}
	}
	return nil
}

// writeAtomic writes data to the host file p through a temporary sibling and a rename.
func writeAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp-" + randomSuffix()
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// LineIndexPath returns the host path of the file that may hold a line index of the file
// name (see the llmfs package's reads of large files): under the same cache directory as
// the metadata, in lines/, named by a hash of the file's host path, never inside the root.
func (s *Store) LineIndexPath(name string) (string, error) {
	meta, err := s.MetaPath()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(s.HostPath(name)))
	return filepath.Join(filepath.Dir(filepath.Dir(meta)), "lines", hex.EncodeToString(sum[:12])+".idx"), nil
}
