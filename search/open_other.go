//go:build !unix

package search

import (
	"io"
	"os"
)

// openHost opens the host file at path for reading.
func openHost(path string) (io.ReadCloser, error) {
	return os.Open(path)
}
