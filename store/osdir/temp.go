package osdir

import "github.com/llmfs/llmfs/internal/hosttemp"

// tempMark is what the name of every temporary file this package makes holds, between a
// prefix of the name it is for and a random suffix: ".NAME.llmfs-SUFFIX".
const tempMark = hosttemp.Mark

// tempSuffixLen is the length of the random suffix: a uint64 in base 36, zero-padded.
const tempSuffixLen = hosttemp.SuffixLen

// IsTemp reports whether base, the last element of a name, is that of a temporary file a
// write of this package makes and renames into place. A crash can leave one behind where
// the system has no unnamed temporary files (Linux O_TMPFILE); [Store.ReadDir] hides them
// and sweeps stale ones, and anything else that lists a store's directory on the host
// should skip them too. It is here, outside the build constraints of the rest of the
// package, so that code built for every platform can call it.
func IsTemp(base string) bool { return hosttemp.IsTemp(base) }
