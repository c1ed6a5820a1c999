package llmfs

import "time"

// SetRacyWindow sets how recently a file may have changed for its identity to stand for
// its content, and returns a function that restores the old value. Tests set it to zero
// so that files they have just written are known by identity.
func SetRacyWindow(d time.Duration) (restore func()) {
	old := racyWindow
	racyWindow = d
	return func() { racyWindow = old }
}

// SetLineIndex sets the size from which files get a line index and the spacing of its
// lines, empties the process's cache of indexes, and returns a function that restores both.
func SetLineIndex(minSize int64, every int) (restore func()) {
	oldMin, oldEvery := lineIndexMin, lineIndexEvery
	lineIndexMin, lineIndexEvery = minSize, every
	lineIndexes.reset()
	return func() {
		lineIndexMin, lineIndexEvery = oldMin, oldEvery
		lineIndexes.reset()
	}
}

// ForgetLineIndexes empties the process's cache of line indexes, as a new process has it.
func ForgetLineIndexes() { lineIndexes.reset() }

// SetReadBufferSize sets the chunk size of streaming reads and returns a function that
// restores it.
func SetReadBufferSize(n int) (restore func()) {
	old := readBufferSize
	readBufferSize = n
	return func() { readBufferSize = old }
}
