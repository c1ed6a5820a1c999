//go:build !linux && !js && !wasip1

package osdir

import "os"

// Elsewhere the intent log's header is read and written with pread and pwrite (see
// intenthead_linux.go).

func mapHeader(*os.File) []byte { return nil }

func unmapHeader([]byte) {}

func readMapped([]byte) (int64, int64, error) { panic("intent log header not mapped") }

func writeMapped([]byte, int64, int64) error { panic("intent log header not mapped") }
