//go:build !purego

package search

import "golang.org/x/sys/cpu"

// hasPairScan says that indexPairFast scans with AVX2.
var hasPairScan = cpu.X86.HasAVX2

//go:noescape
func indexPairAVX2(h []byte, d int, a1, a2, b1, b2 byte) int

// indexPairFast is indexPairAVX2 where the CPU has AVX2, and otherwise checks nothing.
func indexPairFast(h []byte, d int, a1, a2, b1, b2 byte) int {
	if !hasPairScan {
		return -1
	}
	return indexPairAVX2(h, d, a1, a2, b1, b2)
}
