package patch

import (
	"fmt"
	"strconv"
	"strings"
)

// parseSearchReplace reads SEARCH/REPLACE blocks. A block's file is the last non-blank
// line before it that is not a code fence, when that line looks like a path (Aider);
// otherwise the file of the block before, or defaultPath.
func parseSearchReplace(text, defaultPath string) (*Patch, error) {
	lines := splitLines(text)
	p := &Patch{Format: SearchReplace}
	files := map[string]*File{}
	path := defaultPath
	bad := func(i int, format string, args ...any) error {
		return &ParseError{Format: SearchReplace, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
	}
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !isSearch(t) {
			continue
		}
		start := i
		if name := nameBefore(lines[:i]); name != "" {
			path = name
		}
		if path == "" {
			return nil, bad(i, "a SEARCH block without a file name: put the path on the line before it, or give the path parameter")
		}
		h := Hunk{Line: i + 1}
		i++
		// Roo: ":start_line:N" and an optional "-------" line open the search text.
		if i < len(lines) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), ":start_line:"); ok {
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil || n < 1 {
					return nil, bad(i, "bad :start_line: %q", v)
				}
				h.Hint = n
				i++
				if i < len(lines) && strings.TrimSpace(lines[i]) == "-------" {
					i++
				}
			}
		}
		var old, new []string
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "======="; i++ {
			if isSearch(strings.TrimSpace(lines[i])) || isReplace(strings.TrimSpace(lines[i])) {
				return nil, bad(i, "the block opened on line %d has no ======= line", start+1)
			}
			old = append(old, lines[i])
		}
		if i == len(lines) {
			return nil, bad(start, "the SEARCH block has no ======= line")
		}
		for i++; i < len(lines) && !isReplace(strings.TrimSpace(lines[i])); i++ {
			if isSearch(strings.TrimSpace(lines[i])) {
				return nil, bad(i, "the block opened on line %d has no REPLACE line", start+1)
			}
			new = append(new, lines[i])
		}
		if i == len(lines) {
			return nil, bad(start, "the SEARCH block has no REPLACE line (>>>>>>> REPLACE or +++++++ REPLACE)")
		}
		h.Old, h.New = joinLines(old), joinLines(new)
		f := files[path]
		if f == nil {
			f = &File{Op: Update, Path: path, Line: start + 1}
			files[path] = f
			p.Files = append(p.Files, f)
		}
		f.Hunks = append(f.Hunks, h)
	}
	return p, nil
}

func isSearch(t string) bool {
	return strings.HasPrefix(t, "<<<<<<< SEARCH") || strings.HasPrefix(t, "------- SEARCH")
}

func isReplace(t string) bool {
	return strings.HasPrefix(t, ">>>>>>> REPLACE") || strings.HasPrefix(t, "+++++++ REPLACE")
}

// nameBefore is the file name Aider writes before a block: the last non-blank line before
// it, skipping a code fence, when it looks like a path ("# path" and "path:" too).
func nameBefore(lines []string) string {
	for j := len(lines) - 1; j >= 0 && j >= len(lines)-3; j-- {
		t := strings.TrimSpace(lines[j])
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "```"):
			continue
		case isReplace(t) || t == "=======" || t == "...":
			return "" // "..." stands for text left out between blocks, as Aider reads it
		}
		// Aider drops a trailing ":", a leading "#" (a Markdown heading or a comment) and
		// backquotes or asterisks around the name.
		t = strings.Trim(strings.TrimLeft(strings.TrimRight(t, ":"), "#"), "`*: ")
		if t == "" || strings.ContainsAny(t, " \t<>|\"") || len(t) > 400 {
			return ""
		}
		if !strings.ContainsAny(t, "./") {
			return ""
		}
		return t
	}
	return ""
}
