//go:build !linux

package llmfs

import (
	"io"
	"io/fs"
)

// mappedFile is Linux's (readmap_linux.go); elsewhere files are read with read(2).
type mappedFile struct{}

func mapRest(fs.File, int64) *mappedFile { return nil }

func (*mappedFile) next(int) ([]byte, error) { return nil, io.EOF }
func (*mappedFile) close()                   {}
func (*mappedFile) shrunk() bool             { return false }
func (*mappedFile) inWindow(uintptr) bool    { return false }
