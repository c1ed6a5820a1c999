//go:build !windows && !js && !wasip1

package osdir

import "syscall"

// mkfifo makes a named pipe, which the tests use to check that nothing ever opens one.
func mkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }
