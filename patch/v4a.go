package patch

import (
	"fmt"
	"strings"
)

const (
	beginPatch = "*** Begin Patch"
	endPatch   = "*** End Patch"
	addFile    = "*** Add File: "
	deleteFile = "*** Delete File: "
	updateFile = "*** Update File: "
	moveTo     = "*** Move to: "
	endOfFile  = "*** End of File"
)

// parseV4A reads a V4A patch. Like Codex's parser it is lenient where models are sloppy:
// markers may be padded with whitespace, a heredoc wrapper is dropped, blank lines between
// chunks are skipped, and the first chunk of a file needs no "@@".
func parseV4A(text string) (*Patch, error) {
	lines := splitLines(strings.TrimSpace(text))
	base := 1
	if n := len(lines); n >= 4 && isHeredoc(lines[0]) && strings.HasSuffix(strings.TrimSpace(lines[n-1]), "EOF") {
		lines, base = lines[1:n-1], 2
	}
	bad := func(i int, format string, args ...any) error {
		return &ParseError{Format: V4A, Line: base + i, Msg: fmt.Sprintf(format, args...)}
	}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginPatch {
		return nil, bad(0, "the first line must be %q", beginPatch)
	}
	last := len(lines) - 1
	if last == 0 || strings.TrimSpace(lines[last]) != endPatch {
		return nil, bad(last, "the last line must be %q", endPatch)
	}
	p := &Patch{Format: V4A}
	i := 1
	for i < last {
		head := strings.TrimSpace(lines[i])
		switch {
		case head == "":
			i++
		case strings.HasPrefix(head, addFile):
			f := &File{Op: Add, Path: strings.TrimSpace(head[len(addFile):]), Line: base + i}
			i++
			var content []string
			for i < last && strings.HasPrefix(lines[i], "+") {
				content = append(content, lines[i][1:])
				i++
			}
			f.Content = joinLines(content)
			p.Files = append(p.Files, f)
		case strings.HasPrefix(head, deleteFile):
			p.Files = append(p.Files, &File{Op: Delete, Path: strings.TrimSpace(head[len(deleteFile):]), Line: base + i})
			i++
		case strings.HasPrefix(head, updateFile):
			f := &File{Op: Update, Path: strings.TrimSpace(head[len(updateFile):]), Ordered: true, Line: base + i}
			i++
			if i < last && strings.HasPrefix(strings.TrimSpace(lines[i]), moveTo) {
				f.To = strings.TrimSpace(strings.TrimSpace(lines[i])[len(moveTo):])
				i++
			}
			for i < last {
				if strings.TrimSpace(lines[i]) == "" {
					i++
					continue
				}
				if strings.HasPrefix(lines[i], "***") && strings.TrimSpace(lines[i]) != endOfFile {
					break
				}
				h, n, err := parseChunk(lines[i:last], base+i, len(f.Hunks) == 0)
				if err != nil {
					return nil, err
				}
				f.Hunks = append(f.Hunks, h)
				i += n
			}
			if len(f.Hunks) == 0 {
				return nil, bad(f.Line-base, "the update of %s has no changes", f.Path)
			}
			p.Files = append(p.Files, f)
		default:
			return nil, bad(i, "%q is not a file header; the headers are '*** Add File: path', '*** Delete File: path' and '*** Update File: path'", clip(head))
		}
	}
	for _, f := range p.Files {
		if f.Path == "" {
			return nil, &ParseError{Format: V4A, Line: f.Line, Msg: "a file header without a path"}
		}
	}
	return p, nil
}

func isHeredoc(l string) bool {
	switch strings.TrimSpace(l) {
	case "<<EOF", "<<'EOF'", `<<"EOF"`:
		return true
	}
	return false
}

// parseChunk reads one chunk of an update at lines[0], which is on patch line at, and
// returns it and the lines it took.
func parseChunk(lines []string, at int, first bool) (Hunk, int, error) {
	h := Hunk{Line: at}
	i := 0
	switch t := strings.TrimSpace(lines[0]); {
	case t == "@@":
		i = 1
	case strings.HasPrefix(t, "@@ "):
		h.Anchor = strings.TrimSpace(t[3:])
		i = 1
	case !first:
		return h, 0, &ParseError{Format: V4A, Line: at, Msg: fmt.Sprintf("expected a chunk to start with @@, got %q", clip(lines[0]))}
	}
	var old, new []string
	n := 0
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == endOfFile {
			if n == 0 {
				break
			}
			h.EOF = true
			i++
			break
		}
		if l == "" {
			// An empty line is an empty context line whose leading space was lost.
			old, new = append(old, ""), append(new, "")
			n++
			continue
		}
		switch l[0] {
		case ' ':
			old, new = append(old, l[1:]), append(new, l[1:])
		case '-':
			old = append(old, l[1:])
		case '+':
			new = append(new, l[1:])
		default:
			if n == 0 {
				return h, 0, &ParseError{Format: V4A, Line: at + i, Msg: fmt.Sprintf("unexpected line %q: each line of a chunk starts with ' ' (context), '-' (removed) or '+' (added)", clip(l))}
			}
			goto done
		}
		n++
	}
done:
	if n == 0 {
		return h, 0, &ParseError{Format: V4A, Line: at, Msg: "a chunk without lines"}
	}
	// Blank lines at the end of a chunk are separators before the next header more often
	// than context; keep them only when the chunk changes nothing without them.
	for len(old) > 0 && len(new) > 0 && old[len(old)-1] == "" && new[len(new)-1] == "" && lines[i-1] == "" {
		old, new, i = old[:len(old)-1], new[:len(new)-1], i-1
	}
	h.Old, h.New = joinLines(old), joinLines(new)
	return h, i, nil
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
