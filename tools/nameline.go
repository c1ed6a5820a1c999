package tools

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// nameLine is a name as one line of a listing's text: the name itself, or the name quoted
// as a Go string literal (lossless, bytes that are not UTF-8 included) when it would not
// read back as one line (a newline or another control character in it, a line separator,
// a bidirectional override, bytes that are not UTF-8), starts with a quote, or is the empty
// directory's note. A name with a newline printed raw would read as two entries.
func nameLine(name string) string {
	if name == emptyDirNote || strings.HasPrefix(name, `"`) {
		return strconv.Quote(name)
	}
	if printableASCII(name) || utf8.ValidString(name) && !strings.ContainsFunc(name, breaksLine) {
		return name
	}
	return strconv.Quote(name)
}

// printableASCII reports whether s is all printable ASCII (space to tilde), as nearly every
// file name is: such a name breaks no line, and the check costs a tenth of breaksLine's
// table lookups on a listing of many entries.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// breaksLine reports whether r may show as a line break or reorder the text around it: a
// control character, a format character (the bidirectional overrides among them), or a
// line or paragraph separator.
func breaksLine(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// emptyDirNote is the text of a names-only listing of an empty directory.
const emptyDirNote = "(empty directory)"
