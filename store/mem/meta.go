package mem

import (
	"context"
	"io/fs"
	"sync"

	"github.com/llmfs/llmfs/store"
)

var _ store.Metadata = (*Store)(nil)

// metaMap holds a store's metadata; it lives beside the tree, never in it.
// The zero value is empty and ready.
type metaMap struct {
	mu sync.Mutex
	m  map[string]string
}

// GetMeta implements [store.Metadata].
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	m := &s.meta
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if !ok {
		return "", &fs.PathError{Op: "getmeta", Path: key, Err: fs.ErrNotExist}
	}
	return v, nil
}

// SetMeta implements [store.Metadata].
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	m := &s.meta
	m.mu.Lock()
	defer m.mu.Unlock()
	if value == "" {
		delete(m.m, key)
	} else {
		if m.m == nil {
			m.m = map[string]string{}
		}
		m.m[key] = value
	}
	return nil
}
