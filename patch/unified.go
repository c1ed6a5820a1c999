package patch

import (
	"fmt"
	"strconv"
	"strings"
)

// parseUnified reads a unified diff of one or more files. Hunk headers may carry line
// numbers ("@@ -12,4 +12,5 @@"), used only as hints, or none ("@@" or "@@ ... @@", as
// models often write them). A diff without "---"/"+++" headers applies to defaultPath.
func parseUnified(text, defaultPath string) (*Patch, error) {
	lines := splitLines(text)
	p := &Patch{Format: Unified}
	bad := func(i int, format string, args ...any) error {
		return &ParseError{Format: Unified, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
	}
	var f *File
	var oldPath string
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			oldPath = diffPath(l[4:])
			newPath := diffPath(lines[i+1][4:])
			f = &File{Op: Update, Path: oldPath, Ordered: true, Line: i + 1}
			switch {
			case oldPath == "" && newPath == "":
				return nil, bad(i, "a file header with neither path")
			case oldPath == "":
				f.Op, f.Path = Add, newPath
			case newPath == "":
				f.Op = Delete
			case newPath != oldPath:
				f.To = newPath
			}
			p.Files = append(p.Files, f)
			i += 2
		case strings.HasPrefix(l, "@@"):
			if f == nil {
				if defaultPath == "" {
					return nil, bad(i, "a hunk before any file header (--- a/path, +++ b/path), and no path was given")
				}
				f = &File{Op: Update, Path: defaultPath, Ordered: true, Line: i + 1}
				p.Files = append(p.Files, f)
			}
			h, n, err := parseUnifiedHunk(lines[i:], i+1)
			if err != nil {
				return nil, err
			}
			switch f.Op {
			case Add:
				f.Content += h.New
			case Delete:
				// The removed lines are the file's content; nothing to check them against
				// but the file, which Plan does not require.
			default:
				f.Hunks = append(f.Hunks, h)
			}
			i += n
		default:
			// diff --git, index, mode lines, rename and similar headers, and prose
			// between files, are skipped.
			i++
		}
	}
	for _, f := range p.Files {
		if f.Op == Update && len(f.Hunks) == 0 && f.To == "" {
			return nil, &ParseError{Format: Unified, Line: f.Line, Msg: "the diff of " + f.Path + " has no hunks"}
		}
	}
	return p, nil
}

// diffPath is the path of a ---/+++ header: the a/ or b/ prefix and a tab-separated
// timestamp taken off, "" for /dev/null.
func diffPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		s = s[2:]
	}
	return s
}

// parseUnifiedHunk reads the hunk whose header is lines[0], on patch line at.
func parseUnifiedHunk(lines []string, at int) (Hunk, int, error) {
	h := Hunk{Line: at, Hint: hunkStart(lines[0])}
	var old, new []string
	i := 1
	noEOL := false
loop:
	for ; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, `\`):
			// "\ No newline at end of file" belongs to the line before.
			noEOL = true
			continue
		case l == "":
			old, new = append(old, ""), append(new, "")
		case l[0] == ' ':
			old, new = append(old, l[1:]), append(new, l[1:])
		case l[0] == '-' && !(strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ")):
			old = append(old, l[1:])
		case l[0] == '+':
			new = append(new, l[1:])
		default:
			break loop
		}
	}
	// A blank line just before the next header is a separator, not context.
	for len(old) > 0 && len(new) > 0 && old[len(old)-1] == "" && new[len(new)-1] == "" && lines[i-1] == "" {
		old, new, i = old[:len(old)-1], new[:len(new)-1], i-1
	}
	if len(old) == 0 && len(new) == 0 {
		return h, 0, &ParseError{Format: Unified, Line: at, Msg: "a hunk without lines"}
	}
	h.Old, h.New = joinLines(old), joinLines(new)
	if len(old) == 0 {
		h.AddAt = addedAt(lines[0])
	}
	if noEOL {
		h.EOF = true
	}
	return h, i, nil
}

// addedAt is the new start line of a "@@ -l,0 +l,n @@" header (a hunk that only adds
// lines, its place given), or 0 when the header gives no place or old lines.
func addedAt(header string) int {
	rest, ok := strings.CutPrefix(header, "@@ -")
	if !ok {
		return 0
	}
	oldRange, rest, ok := strings.Cut(rest, " +")
	if !ok || !strings.HasSuffix(oldRange, ",0") {
		return 0
	}
	newRange, _, ok := strings.Cut(rest, " ")
	if !ok {
		return 0
	}
	newStart, _, _ := strings.Cut(newRange, ",")
	n, err := strconv.Atoi(newStart)
	if err != nil || n < 0 {
		return 0
	}
	return max(n, 1)
}

// hunkStart is the old start line of a "@@ -l,n +l,n @@" header, or 0.
func hunkStart(header string) int {
	rest, ok := strings.CutPrefix(header, "@@ -")
	if !ok {
		return 0
	}
	end := strings.IndexAny(rest, ", ")
	if end < 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil || n < 0 {
		return 0
	}
	return n
}
