//go:build !amd64 || purego

package search

// hasSeqScan says that indexSeqFast scans with vector instructions: not here.
const hasSeqScan = false

// indexSeqFast checks no position here: the finder goes byte by byte instead.
func indexSeqFast(h []byte, t *[maxSeq * 64]byte) int { return -1 }
