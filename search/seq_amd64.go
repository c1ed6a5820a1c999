//go:build !purego

package search

import "golang.org/x/sys/cpu"

// hasSeqScan says that indexSeqFast scans with AVX2.
var hasSeqScan = cpu.X86.HasAVX2

// indexSeqAVX2 returns the lowest i where h[i+j] is in class j of t (see
// seqFinder.tables) for each of the maxSeq classes, looked for 32 positions at a time
// while i+maxSeq-1+32 <= len(h); or, when there is none, -1-n where n is the number of
// positions checked.
//
//go:noescape
func indexSeqAVX2(h []byte, t *[maxSeq * 64]byte) int

// indexSeqFast is indexSeqAVX2 where the CPU has AVX2, and otherwise checks nothing.
func indexSeqFast(h []byte, t *[maxSeq * 64]byte) int {
	if !hasSeqScan {
		return -1
	}
	return indexSeqAVX2(h, t)
}
