//go:build windows

package osdir

// oDirectory is zero on Windows: syscall has no O_DIRECTORY there, and opening a file
// never blocks, so ReadDir on a name that is not a directory simply fails.
const oDirectory = 0
