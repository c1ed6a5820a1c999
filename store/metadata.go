package store

import "context"

// A Metadata is a Store that keeps small key/value records about itself outside the tree
// of files, where no listing or search can see them. llmfs uses it to remember the hashes
// of the system files it generated (package sysfiles). Values are short strings; a store
// may refuse large ones.
type Metadata interface {
	Store
	// GetMeta returns the value of key, or an error wrapping [io/fs.ErrNotExist] when
	// the key has none.
	GetMeta(ctx context.Context, key string) (string, error)
	// SetMeta sets key to value; an empty value removes the key.
	SetMeta(ctx context.Context, key, value string) error
}
