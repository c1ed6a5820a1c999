package store

import "context"

// A Resolver is a Store with symbolic links that can say where a name really leads.
// The llmfs core uses it to apply its deny rules to the target of a link as well as to
// the link, so that a link cannot open a door into a denied path.
type Resolver interface {
	Store
	// RealName follows every symbolic link in name and returns the store name of the
	// result. When the final element does not exist, its parent is resolved and the last
	// element kept, so the answer also covers a file about to be created. It fails with
	// [ErrEscape] when the result lies outside the store.
	RealName(ctx context.Context, name string) (string, error)
}

// RealName returns the real store name of name using s's [Resolver] if it has one; a store
// without one has no symbolic links, so the name is its own.
func RealName(ctx context.Context, s Store, name string) (string, error) {
	if r, ok := s.(Resolver); ok {
		return r.RealName(ctx, name)
	}
	return name, nil
}
