package osdir

import "strings"

// tempMark is what the name of every temporary file this package makes holds, between a
// prefix of the name it is for and a random suffix: ".NAME.llmfs-SUFFIX".
const tempMark = ".llmfs-"

// tempSuffixLen is the length of the random suffix: a uint64 in base 36, zero-padded.
const tempSuffixLen = 13

// IsTemp reports whether base, the last element of a name, is that of a temporary file a
// write of this package makes and renames into place. A crash can leave one behind where
// the system has no unnamed temporary files (Linux O_TMPFILE); every listing of the store
// ([Store.ReadDir], [Store.ReadDirTypes], a [store.DirHandle]'s) hides them, and ReadDir
// sweeps stale ones: code that walks a store sees none without asking. It is here, outside
// the build constraints of the rest of the package, so that code built for every platform
// can call it.
func IsTemp(base string) bool {
	if len(base) < 2 || base[0] != '.' {
		return false
	}
	i := strings.LastIndex(base, tempMark)
	if i < 1 {
		return false
	}
	suffix := base[i+len(tempMark):]
	if len(suffix) != tempSuffixLen {
		return false
	}
	for _, c := range []byte(suffix) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}
