//go:build unix && !linux

package search

// openBeneath opens name below the directory dirfd, refusing a final symbolic link.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	return openat(dirfd, name, flags)
}
