package llmfs

// SetReadMap sets the size from which the rest of a file is mapped rather than read and
// the size of the mapped window, and returns a function that restores both.
func SetReadMap(minSize, window int64) (restore func()) {
	oldMin, oldWindow := readMapMin, readMapWindow
	readMapMin, readMapWindow = minSize, window
	return func() { readMapMin, readMapWindow = oldMin, oldWindow }
}

// SetReadMapHook sets a function called with the offset of each window just mapped, and
// returns a function that removes it.
func SetReadMapHook(f func(off int64)) (restore func()) {
	mapHook = f
	return func() { mapHook = nil }
}
