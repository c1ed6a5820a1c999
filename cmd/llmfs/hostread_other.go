//go:build !unix && !js && !wasip1

package main

import (
	"bytes"
	"os"
)

// readHostFile reads the file at p whole, expecting size bytes (the walk's figure; the
// file may have changed since).
func readHostFile(p string, size int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	b.Grow(int(size) + 1) // one more, so a file of the size expected ends in one read
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}
