//go:build !amd64 || purego

package search

// hasPairScan says that indexPairFast scans with vector instructions: not here.
const hasPairScan = false

// indexPairFast checks no position here: the finder scans for one byte instead.
func indexPairFast(h []byte, d int, a1, a2, b1, b2 byte) int { return -1 }
