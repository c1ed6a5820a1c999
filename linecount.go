package llmfs

import (
	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// lineCounts is what a change from before to after added and removed, in lines, for the
// journal to keep with the change ([store.Change.Lines]) so that a listing loads no
// content. old and new are the versions' contents when they are files; nil for a file
// whose content the journal does not keep (larger than [Options.UndoMaxFileBytes]), which,
// like a symbolic link, counts no lines, as [History.Lines] counts it from the journal.
// It is the one place counts are made: a writer that keeps a change's contents calls it.
// Contents above countMaxBytes are left uncounted, for a reader to count if it asks.
func lineCounts(before, after store.Version, old, new []byte) store.Lines {
	if !countable(before, old) || !countable(after, new) {
		return store.Lines{Counted: true}
	}
	if before.Kind == store.File && after.Kind == store.File && before.Hash == after.Hash {
		return store.Lines{Counted: true}
	}
	if len(old) > countMaxBytes || len(new) > countMaxBytes {
		return store.Lines{}
	}
	a, r := textdiff.Count(string(old), string(new))
	return store.Lines{Added: a, Removed: r, Counted: true}
}

// countMaxBytes bounds the content a write counts the lines of: counting copies and splits
// it, which for the largest content the journal keeps (64 MiB) would cost a write some
// hundreds of megabytes; such a change is counted by its reader, as before counts were kept.
const countMaxBytes = 4 << 20

// countable reports whether a version's lines can be counted from data: it is absent or a
// directory (no lines), or a file whose content data is.
func countable(v store.Version, data []byte) bool {
	switch v.Kind {
	case store.Link:
		return false
	case store.File:
		return data != nil || v.Size == 0
	}
	return true
}

// unloaded is the count of a change whose before version the recorder looked at without
// loading its content (the target a move or copy replaces): counted only when it is no
// file; a file's count is left to the reader ([History.Lines]).
func unloaded(before, after store.Version, new []byte) store.Lines {
	if before.Kind == store.File && before.Size > 0 {
		return store.Lines{}
	}
	return lineCounts(before, after, nil, new)
}
