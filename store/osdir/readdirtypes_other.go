//go:build !linux && !js && !wasip1

package osdir

import (
	"io/fs"
	"os"
)

// readDirTypes reads the entries of the directory f: where the store has no getdents
// parser of its own, as os.File.ReadDir gives them.
func (s *Store) readDirTypes(f *os.File, dir string) ([]fs.DirEntry, error) {
	entries, err := f.ReadDir(-1)
	return sortEntries(entries), err
}
