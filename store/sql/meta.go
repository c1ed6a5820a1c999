package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"

	"github.com/llmfs/llmfs/store"
)

var _ store.Metadata = (*Store)(nil)

// maxMetaValue bounds a metadata value: the records are small by contract.
const maxMetaValue = 64 << 10

// GetMeta implements [store.Metadata].
func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.x.db.QueryRowContext(ctx, s.x.d.rebind(`SELECT value FROM llmfs_meta WHERE ws = ? AND key = ?`), s.ws, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return "", pathErr("getmeta", key, err)
	}
	return v, nil
}

// SetMeta implements [store.Metadata]. An empty value removes the key.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	if len(value) > maxMetaValue {
		return pathErr("setmeta", key, fs.ErrInvalid)
	}
	return s.change(ctx, true, func(t *txn) error {
		if _, err := t.exec(`DELETE FROM llmfs_meta WHERE ws = ? AND key = ?`, s.ws, key); err != nil {
			return pathErr("setmeta", key, err)
		}
		if value == "" {
			return nil
		}
		if _, err := t.exec(`INSERT INTO llmfs_meta (ws, key, value) VALUES (?, ?, ?)`, s.ws, key, value); err != nil {
			return pathErr("setmeta", key, err)
		}
		return nil
	})
}
