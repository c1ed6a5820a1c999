// Package patch parses the patch formats models write and plans them against the files
// they change; it never writes. The core (llmfs.Workspace.Patch) commits a plan as one
// all-or-nothing change.
//
// Three formats are read, told apart by their markers ([Sniff]):
//
//   - V4A, the format of Codex's apply_patch: "*** Begin Patch", then per file
//     "*** Add File: p" (lines prefixed "+"), "*** Delete File: p", or
//     "*** Update File: p" with an optional "*** Move to: q" and chunks of " ", "-" and
//     "+" lines, each chunk optionally opened by "@@" or "@@ anchor" (a line the chunk
//     comes after, such as a function's signature) and optionally closed by
//     "*** End of File"; then "*** End Patch". As in Codex, markers may carry surrounding
//     whitespace and a shell heredoc wrapper (<<'EOF' ... EOF) is taken off.
//   - Unified diffs ("--- a/p", "+++ b/p", "@@ -l,n +l,n @@"), with or without the line
//     numbers, "/dev/null" for added and deleted files, git's extended headers accepted.
//   - SEARCH/REPLACE blocks: Aider's "<<<<<<< SEARCH" / "=======" / ">>>>>>> REPLACE"
//     with the file name on the line before (code fences allowed), Cline's
//     "------- SEARCH" / "=======" / "+++++++ REPLACE", and Roo's ":start_line:N" hint
//     after the SEARCH marker. Blocks without a file name apply to the default path.
//
// Planning matches every hunk with the steps of the edit matcher (exact, then trailing
// whitespace, indentation, Unicode punctuation, copied line numbers), each accepted only
// when it matches one place; see [Patch.Plan]. A hunk that changes nothing (its old and
// new lines the same) is refused when parsed.
package patch

import (
	"fmt"
	"strings"
)

// Format is a patch format.
type Format int

// The formats.
const (
	Unknown Format = iota
	V4A
	Unified
	SearchReplace
)

func (f Format) String() string {
	switch f {
	case V4A:
		return "v4a"
	case Unified:
		return "unified"
	case SearchReplace:
		return "search-replace"
	}
	return "unknown"
}

// Op is what a patch does to one file.
type Op string

// The file operations.
const (
	Add    Op = "add"    // create the file (an existing one is replaced, as in Codex)
	Delete Op = "delete" // delete the file
	Update Op = "update" // change the file by hunks, and move it when To is set
)

// Patch is a parsed patch: one entry per file, in the patch's order.
type Patch struct {
	Format Format
	Files  []*File
}

// File is what a patch does to one file.
type File struct {
	Op      Op
	Path    string // as written in the patch
	To      string // Update: the new path, when the file also moves
	Content string // Add: the whole new content
	Hunks   []Hunk // Update
	// Ordered hunks (V4A, unified) come in file order: each is looked for after the one
	// before. Unordered ones (SEARCH/REPLACE) each search the whole file as the blocks
	// before it left it.
	Ordered bool
	Line    int // where the file's section starts in the patch, from 1
}

// Hunk is one change inside a file: Old (lines ending in "\n", or a block's text) is
// replaced by New.
type Hunk struct {
	Old, New string
	Anchor   string // V4A "@@ anchor": a line the hunk comes after
	EOF      bool   // the hunk ends at the end of the file
	Hint     int    // a line number the patch gives for Old, 0 if none
	// AddAt is, for a unified hunk of added lines only whose header gives its place
	// ("@@ -5,0 +6,2 @@", as git diff -U0 writes), the line number the first added line
	// takes in the file as the hunks before it left it; 0 otherwise.
	AddAt int
	Line  int // where the hunk starts in the patch, from 1
}

// ParseError is a patch that cannot be read, at Line (from 1; 0 for the whole patch).
type ParseError struct {
	Format Format
	Line   int
	Msg    string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s patch, line %d: %s", e.Format, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s patch: %s", e.Format, e.Msg)
}

// Sniff tells which format text is in, by its markers.
func Sniff(text string) Format {
	for l := range strings.Lines(text) {
		t := strings.TrimSpace(l)
		switch {
		case t == beginPatch:
			return V4A
		case strings.HasPrefix(t, "<<<<<<< SEARCH"), strings.HasPrefix(t, "------- SEARCH"):
			return SearchReplace
		case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "diff --git ") ||
			strings.HasPrefix(l, "@@ -") || t == "@@":
			return Unified
		}
	}
	return Unknown
}

// maxPatchBytes bounds the patch text Parse accepts.
const maxPatchBytes = 16 << 20

// Parse reads text in the format [Sniff] finds. defaultPath names the file of
// SEARCH/REPLACE blocks that carry no file name; it may be empty. Errors are
// *[ParseError].
func Parse(text, defaultPath string) (*Patch, error) {
	if len(text) > maxPatchBytes {
		return nil, &ParseError{Msg: fmt.Sprintf("the patch is %d bytes, over the %d-byte limit", len(text), maxPatchBytes)}
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var (
		p   *Patch
		err error
	)
	switch f := Sniff(text); f {
	case V4A:
		p, err = parseV4A(text)
	case Unified:
		p, err = parseUnified(text, defaultPath)
	case SearchReplace:
		p, err = parseSearchReplace(text, defaultPath)
	default:
		return nil, &ParseError{Msg: "not a patch: expected a V4A patch (*** Begin Patch), a unified diff (--- a/file, +++ b/file, @@ hunks) or SEARCH/REPLACE blocks (<<<<<<< SEARCH, =======, >>>>>>> REPLACE)"}
	}
	if err != nil {
		return nil, err
	}
	if len(p.Files) == 0 {
		return nil, &ParseError{Format: p.Format, Msg: "the patch changes no file"}
	}
	if err := noOpHunk(p); err != nil {
		return nil, err
	}
	if err := addedAgain(p); err != nil {
		return nil, err
	}
	return p, nil
}

// addedAgain refuses a patch that adds a file an earlier section already gave content (two
// "*** Add File" of one path, or an add after an update or a move onto it): the add
// replaces the whole file, so the earlier content would be lost without a word. A delete in
// between is an explicit replacement and is allowed.
func addedAgain(p *Patch) error {
	filled := map[string]int{} // path -> line of the section that gave it content
	for _, f := range p.Files {
		switch f.Op {
		case Add:
			if at, ok := filled[f.Path]; ok {
				return &ParseError{Format: p.Format, Line: f.Line, Msg: fmt.Sprintf("%s is added again, after line %d gave it content that this add would silently replace; give each file one section", f.Path, at)}
			}
			filled[f.Path] = f.Line
		case Delete:
			delete(filled, f.Path)
		case Update:
			if f.To != "" && f.To != f.Path {
				delete(filled, f.Path)
				filled[f.To] = f.Line
			} else {
				filled[f.Path] = f.Line
			}
		}
	}
	return nil
}

// noOpHunk refuses a hunk whose old and new lines are the same: it changes nothing, so
// the text that was to change was lost in copying (a SEARCH/REPLACE block whose last,
// blank line was dropped from both parts; a V4A chunk of context lines alone). Applying
// it would report success for an edit that was never made.
func noOpHunk(p *Patch) error {
	for _, f := range p.Files {
		for k, h := range f.Hunks {
			if h.Old != "" && h.Old == h.New {
				return &ParseError{Format: p.Format, Line: h.Line, Msg: fmt.Sprintf(
					"%s: hunk %d of %d changes nothing (its old and new lines are the same); give the new lines as they should be, or leave the hunk out",
					f.Path, k+1, len(f.Hunks))}
			}
		}
	}
	return nil
}

// joinLines renders lines as text, each ending in "\n".
func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// splitLines splits text into lines without their "\n"; a final "\n" ends the last line.
func splitLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}
