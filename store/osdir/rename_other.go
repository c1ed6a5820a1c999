//go:build !linux && !js && !wasip1

package osdir

func (s *Store) renameNoReplace(oldname, newname string) error {
	return s.renameChecked(oldname, newname)
}
