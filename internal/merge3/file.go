package merge3

import (
	"bytes"
	"fmt"
)

// A Version is one side's file: its path and content, or its absence (deleted, or not
// created yet).
type Version struct {
	Path   string
	Data   []byte
	Absent bool
}

func (v Version) same(w Version) bool {
	if v.Absent || w.Absent {
		return v.Absent == w.Absent
	}
	return v.Path == w.Path && bytes.Equal(v.Data, w.Data)
}

// A FileResult is the merge of one file: the version it ends as, and why it is a
// conflict when it is one (Why is "" when the merge is clean). Content conflicts are also
// marked in Version.Data.
type FileResult struct {
	Version
	Conflicts []Conflict
	Why       string // "content", "deleted against edit", "renamed both ways (...)", "created both ways"
}

// Clean reports whether the file merged without a conflict.
func (r FileResult) Clean() bool { return r.Why == "" }

// MergeFile merges one file's two sides against their base, file and content: a side that
// left the file as the base had it takes the other's; a deletion against an edit, or two
// different renames, are conflicts (the result then keeps ours); a rename against an
// edit is the edit under the new name; two edits merge line by line.
func MergeFile(base, ours, theirs Version, opts Options) FileResult {
	switch {
	case ours.same(base), ours.same(theirs):
		return FileResult{Version: theirs}
	case theirs.same(base):
		return FileResult{Version: ours}
	case ours.Absent != theirs.Absent:
		// One side deleted, the other changed the file: nothing says which wins.
		return FileResult{Version: ours, Why: "deleted against edit"}
	}
	// Both present and both changed something.
	out := Version{Path: ours.Path}
	switch {
	case base.Absent || ours.Path == theirs.Path:
	case ours.Path == base.Path:
		out.Path = theirs.Path
	case theirs.Path != base.Path:
		return FileResult{Version: ours, Why: fmt.Sprintf("renamed both ways (%s, %s)", ours.Path, theirs.Path)}
	}
	r := Merge(base.Data, ours.Data, theirs.Data, opts)
	out.Data = r.Text
	fr := FileResult{Version: out, Conflicts: r.Conflicts}
	if !r.Clean() {
		fr.Why = "content"
		if base.Absent {
			fr.Why = "created both ways"
		}
	}
	return fr
}
