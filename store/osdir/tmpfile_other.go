//go:build !linux && !js && !wasip1

package osdir

import "errors"

// newTemp starts the new content of name as a named temporary file in its directory:
// this system has no unnamed ones. [Store.ReadDir] hides such files and sweeps those a
// crash left behind.
func (s *Store) newTemp(name string) (*tempFile, error) { return s.newNamedTemp(name) }

func (t *tempFile) commitUnnamed(exclusive bool) error {
	return errors.New("osdir: no unnamed temporary files on this system")
}
