package tools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/llmfs/llmfs"
)

// geminiFlexDelims are the characters gemini-cli's replace lets whitespace differ around.
const geminiFlexDelims = "():[]{}<>="

// geminiFlexEdit is gemini-cli's last way to find old_string (edit.ts,
// calculateRegexReplacement), tried when the workspace's matcher finds nothing: the text
// is cut into tokens at whitespace and around brackets, ':', '<', '>' and '=', and the
// tokens may have any whitespace between them, from the start of a line. So
// "function myFunc(a, b) {" finds "  function  myFunc( a, b ) {". new_string takes the
// indentation of the line found, its own first line's indentation replaced.
//
// It returns ok false when the tokens are found nowhere, and leaves the change to the
// workspace's Edit of the exact text found, so read-before-edit, the journal and the diff
// are as for any edit. want, above 0, is the number of places old_string must match
// (expected_replacements); another number refuses the edit before anything is written.
func geminiFlexEdit(ctx context.Context, tb *Toolbox, p, old, new string, all bool, want int) (*llmfs.EditResult, bool, error) {
	re := geminiFlexPattern(old)
	if re == nil {
		return nil, false, nil
	}
	data, err := tb.ws.ReadFile(ctx, p, int64(tb.ws.Settings().Limits.MaxEditBytes))
	if err != nil {
		return nil, false, nil
	}
	found := re.FindAllStringSubmatch(strings.ReplaceAll(string(data), "\r\n", "\n"), -1)
	switch {
	case len(found) == 0:
		return nil, false, nil
	case want > 0 && len(found) != want:
		return nil, true, &llmfs.Error{Code: llmfs.CodePatternNotUnique, Path: p,
			Msg: fmt.Sprintf("expected %d replacements but old_string occurs %d times in %s (whitespace aside); nothing was changed", want, len(found), p)}
	case len(found) > 1 && !all:
		return nil, true, &llmfs.Error{Code: llmfs.CodePatternNotUnique, Path: p,
			Msg: fmt.Sprintf("old_string matches %d places in %s (whitespace aside). Include more surrounding lines to make it unique, "+
				"or set allow_multiple to replace every occurrence.", len(found), p)}
	}
	var edits []llmfs.Replacement
	seen := map[string]bool{}
	for _, m := range found {
		if seen[m[0]] {
			continue
		}
		seen[m[0]] = true
		edits = append(edits, llmfs.Replacement{Old: m[0], New: reindent(new, m[1]), ReplaceAll: all})
	}
	res, err := tb.ws.EditMany(ctx, p, edits)
	if err != nil {
		return nil, true, err
	}
	res.Matched = llmfs.MatchWhitespace
	return res, true, nil
}

// geminiFlexPattern is the pattern of geminiFlexEdit for old, nil when old has no tokens.
// Whitespace may differ, but never joins or splits a word: two word tokens that old
// separates by whitespace need some between them, and a last token that ends in a word
// character must end a word in the file too. An old_string that ends a line must match up
// to that line's end, so the newline new_string carries replaces one.
func geminiFlexPattern(old string) *regexp.Regexp {
	s := strings.ReplaceAll(old, "\r\n", "\n")
	var b strings.Builder
	b.WriteString(`(?m)^([ \t]*)`)
	prev, n, space := "", 0, false
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = true
			i++
			continue
		}
		j := i + 1
		if !strings.ContainsRune(geminiFlexDelims, rune(c)) {
			for j < len(s) && !strings.ContainsRune(" \t\n\r\v\f"+geminiFlexDelims, rune(s[j])) {
				j++
			}
		}
		tok := s[i:j]
		if n > 0 {
			if space && wordByte(prev[len(prev)-1]) && wordByte(tok[0]) {
				b.WriteString(`\s+`)
			} else {
				b.WriteString(`\s*`)
			}
		}
		b.WriteString(regexp.QuoteMeta(tok))
		prev, n, space = tok, n+1, false
		i = j
	}
	if n == 0 {
		return nil
	}
	if last := prev[len(prev)-1]; last < 0x80 && wordByte(last) {
		b.WriteString(`\b`) // RE2's \b knows ASCII words only
	}
	if strings.HasSuffix(s, "\n") {
		b.WriteString(`[ \t]*\n`)
	}
	return regexp.MustCompile(b.String())
}

// wordByte reports whether c is part of a word: a letter, digit, underscore, or a byte of
// a multi-byte UTF-8 character.
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// reindent gives the lines of s the indentation indent in place of its first line's, as
// gemini-cli's applyIndentation: blank lines become empty, and a line not starting with
// the first line's indentation loses its own.
func reindent(s, indent string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	ref := lines[0][:len(lines[0])-len(strings.TrimLeft(lines[0], " \t"))]
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
			lines[i] = ""
		case strings.HasPrefix(l, ref):
			lines[i] = indent + l[len(ref):]
		default:
			lines[i] = indent + strings.TrimLeft(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}
