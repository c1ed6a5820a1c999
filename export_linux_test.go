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

// SetReadSplit sets how much must be left to count for the second half to be counted by
// another goroutine, and the size of the blocks it counts in (a power of two), and returns
// a function that restores both.
func SetReadSplit(minSize int64, block int) (restore func()) {
	oldMin, oldBlock := splitMin, restBlock
	splitMin, restBlock = minSize, block
	return func() { splitMin, restBlock = oldMin, oldBlock }
}
