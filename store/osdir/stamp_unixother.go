//go:build unix && !linux

package osdir

import (
	"golang.org/x/sys/unix"

	"github.com/llmfs/llmfs/store"
)

// knownAt knows nothing here: there are no stamps (see stamp_other.go).
func (s *Store) knownAt(string, *unix.Stat_t) (store.Version, []byte, bool) {
	return store.Version{}, nil, false
}
