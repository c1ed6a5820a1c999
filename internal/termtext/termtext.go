// Package termtext makes text from agents and files safe to print on a terminal.
//
// A file name, a tool title or a message chunk can hold a newline, a carriage return or an
// escape sequence: printed as it is, it can forge a line ("[fs] modified /etc/passwd"),
// erase one (ESC [2K) or retitle the window. Every face that prints such text for a person
// (llmfs acp, the CLI's messages, logs) passes it through [Name] or [Text] first.
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Name returns s as it is when every rune in it is printable (letters, marks, numbers,
// punctuation, symbols and the ASCII space) and it is valid UTF-8; otherwise it returns s
// quoted as a Go string, so "a\nb" prints as "a\nb" with its quotes and escapes. Names
// that need no quoting, the common case, cost no allocation.
//
// Use it for file names, paths, ids and titles: one line, nothing hidden.
func Name(s string) string {
	if isPlain(s) {
		return s
	}
	return strconv.Quote(s)
}

func isPlain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !unicode.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}

// Text returns s with its newlines and tabs kept and every other control character,
// format character (such as the bidirectional overrides) and invalid byte escaped as
// strconv.Quote escapes them (\r, \x1b, \u202e, \xff), without quotes around the whole.
//
// Use it for free text that may span lines, such as an agent's messages.
func Text(s string) string {
	clean := true
	for _, r := range s {
		if r != '\n' && r != '\t' && needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&0xf, 16))
		case r != '\n' && r != '\t' && needsEscape(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// needsEscape reports whether r may change what a terminal shows beyond printing itself.
// RuneError is escaped only where it stands for an invalid byte (see Text).
func needsEscape(r rune) bool {
	if r == utf8.RuneError {
		return true // checked byte-wise by the caller
	}
	return r != ' ' && !unicode.IsPrint(r)
}
