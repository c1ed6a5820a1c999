// Package blob is the content tier of llmfs's database stores: immutable content kept by
// the hex SHA-256 of its bytes, in the database itself (the default: no Store at all) or in
// S3-compatible object storage (package s3blob). Content is written once under its hash and
// never changed, so putting what is there already is a deduplicated hit, and a reader checks
// every object against the hash that named it ([Verify]).
package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"
)

// A Store keeps objects by key. Implementations are safe for concurrent use. A missing
// object is an error wrapping [fs.ErrNotExist].
type Store interface {
	// PutIfAbsent stores data under key unless an object is there already (S3's
	// If-None-Match: *), and reports whether it created one.
	PutIfAbsent(ctx context.Context, key string, data []byte) (created bool, err error)
	// Get returns the object's bytes.
	Get(ctx context.Context, key string) ([]byte, error)
	// GetRange returns n bytes of the object from off (fewer at its end).
	GetRange(ctx context.Context, key string, off, n int64) ([]byte, error)
	// Delete removes the object; deleting a missing one is no error.
	Delete(ctx context.Context, key string) error
	// List calls fn for each object whose key starts with prefix, in key order.
	List(ctx context.Context, prefix string, fn func(Object) error) error
}

// An Object is what List tells of one object.
type Object struct {
	Key      string
	Size     int64
	Modified time.Time
}

// ChunkPrefix is the prefix of the keys of content chunks.
const ChunkPrefix = "chunks/"

// Sum returns the hex SHA-256 of data, the name content is kept by.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// ChunkKey returns the key of the chunk whose hex SHA-256 is sum.
func ChunkKey(sum string) string { return ChunkPrefix + sum }

// SumOf returns the hash a chunk key names, or "" if key names no chunk.
func SumOf(key string) string {
	s, ok := strings.CutPrefix(key, ChunkPrefix)
	if !ok || len(s) != 2*sha256.Size {
		return ""
	}
	if _, err := hex.DecodeString(s); err != nil {
		return ""
	}
	return s
}

// ErrCorrupt marks content that does not match the hash that names it.
var ErrCorrupt = errors.New("content does not match its hash")

// Verify checks that data is the content whose hex SHA-256 is sum.
func Verify(sum string, data []byte) error {
	if got := Sum(data); got != sum {
		return fmt.Errorf("object %s holds %d bytes hashing to %s: %w", sum, len(data), got, ErrCorrupt)
	}
	return nil
}

// Mem is a Store in memory, for tests and programs that keep nothing.
type Mem struct {
	mu   sync.Mutex
	objs map[string]memObject
}

type memObject struct {
	data     []byte
	modified time.Time
}

// NewMem returns an empty Mem.
func NewMem() *Mem { return &Mem{objs: map[string]memObject{}} }

func (m *Mem) PutIfAbsent(ctx context.Context, key string, data []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objs[key]; ok {
		return false, nil
	}
	m.objs[key] = memObject{data: slices.Clone(data), modified: time.Now()}
	return true, nil
}

func (m *Mem) Get(ctx context.Context, key string) ([]byte, error) {
	return m.GetRange(ctx, key, 0, -1)
}

// GetRange implements [Store]; n < 0 reads to the end.
func (m *Mem) GetRange(ctx context.Context, key string, off, n int64) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objs[key]
	if !ok {
		return nil, &fs.PathError{Op: "get", Path: key, Err: fs.ErrNotExist}
	}
	off = min(max(off, 0), int64(len(o.data)))
	end := int64(len(o.data))
	if n >= 0 {
		end = min(end, off+n)
	}
	return slices.Clone(o.data[off:end]), nil
}

func (m *Mem) Delete(ctx context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objs, key)
	return nil
}

func (m *Mem) List(ctx context.Context, prefix string, fn func(Object) error) error {
	m.mu.Lock()
	var out []Object
	for k, o := range m.objs {
		if strings.HasPrefix(k, prefix) {
			out = append(out, Object{Key: k, Size: int64(len(o.data)), Modified: o.modified})
		}
	}
	m.mu.Unlock()
	slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Key, b.Key) })
	for _, o := range out {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

// Age sets the time an object was last modified, as if it had been put at t: for tests of
// grace periods.
func (m *Mem) Age(key string, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.objs[key]; ok {
		o.modified = t
		m.objs[key] = o
	}
}
