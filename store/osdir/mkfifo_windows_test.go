//go:build windows

package osdir

import "errors"

// mkfifo fails on Windows, which has no named pipes in the file system.
func mkfifo(name string) error { return errors.ErrUnsupported }
