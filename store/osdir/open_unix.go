//go:build !windows && !js && !wasip1

package osdir

import "syscall"

// oDirectory makes an open fail unless the name is a directory, so that ReadDir never
// opens (and blocks on) a FIFO or device swapped in for a directory.
const oDirectory = syscall.O_DIRECTORY
