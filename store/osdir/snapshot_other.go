//go:build !unix && !js && !wasip1

package osdir

import "github.com/llmfs/llmfs/store"

// snapRoot is what a Store keeps for quick snapshots: nothing here (see snapshot_unix.go).
type snapRoot struct{}

func (s *Store) closeSnap() {}

// quickSnapshot never takes a snapshot here: the general path does.
func (s *Store) quickSnapshot(name string, max int64) (store.Version, []byte, bool, error) {
	return store.Version{}, nil, false, nil
}
