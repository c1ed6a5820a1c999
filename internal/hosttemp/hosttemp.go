// Package hosttemp names the temporary files that package store/osdir writes and renames
// into place, so that code which lists a host directory without that package (the core's
// tree walk, package search) can skip them without importing it.
package hosttemp

import "strings"

// Mark is what the name of every temporary file holds, between a prefix of the name it is
// for and a random suffix: ".NAME.llmfs-SUFFIX".
const Mark = ".llmfs-"

// SuffixLen is the length of the random suffix: a uint64 in base 36, zero-padded.
const SuffixLen = 13

// IsTemp reports whether base, the last element of a name, is that of a temporary file
// named as above.
func IsTemp(base string) bool {
	if len(base) < 2 || base[0] != '.' {
		return false
	}
	i := strings.LastIndex(base, Mark)
	if i < 1 {
		return false
	}
	suffix := base[i+len(Mark):]
	if len(suffix) != SuffixLen {
		return false
	}
	for _, c := range []byte(suffix) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}
