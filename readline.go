package llmfs

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// lineKeepBytes is how much of one line is kept while scanning: enough for MaxLineLength
// characters of up to four bytes, and the line ending.
func lineKeepBytes(lim Limits) int {
	if lim.MaxLineLength < 0 {
		return lim.MaxReadBytes + 2
	}
	return 4*lim.MaxLineLength + 2
}

// emitLine appends one line (kept bytes cur of a line curLen long, ending included) to out.
// It reports false, appending nothing, when the line would pass the byte cap. Bytes that are
// not UTF-8 are replaced with U+FFFD one by one, and the byte cap counts the replacements,
// so it holds for the content as returned.
func (w *Workspace) emitLine(out *bytes.Buffer, res *ReadResult, cur []byte, curLen int, ending string) bool {
	lim := w.limits
	whole := len(cur) == curLen
	text := cur
	if whole {
		text = cur[:len(cur)-len(ending)]
	} else {
		// Only the head of the line was kept; it is cut below in any case.
		text = trimPartialRune(cur)
	}
	cut := false
	if lim.MaxLineLength >= 0 && (!whole || utf8.RuneCount(text) > lim.MaxLineLength) {
		text = cutRunes(text, lim.MaxLineLength)
		cut = true
	}
	mark := ""
	if cut {
		mark = cutMark(curLen - len(ending))
	}
	if out.Len()+validLen(text)+len(mark)+len(ending) > lim.MaxReadBytes || !whole && !cut {
		if res.Lines > 0 {
			return false
		}
		// A single line larger than the byte cap: return its head.
		mark = cutMark(curLen - len(ending))
		text = cutRunes(text, max(lim.MaxReadBytes-len(mark)-len(ending), 0)/4)
		cut = true
	}
	if !utf8.Valid(text) {
		text = toValidUTF8(text)
		res.InvalidUTF8 = true
	}
	out.Write(text)
	if cut {
		res.CutLines++
		out.WriteString(mark)
	}
	out.WriteString(ending)
	res.Lines++
	return true
}

// cutMark is what follows the kept head of a line cut short.
func cutMark(n int) string { return fmt.Sprintf(" … [line cut: %d bytes in all]", n) }

// validLen is the length of b once each byte that is not UTF-8 is replaced with U+FFFD.
func validLen(b []byte) int {
	n := len(b)
	if utf8.Valid(b) {
		return n
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n += len("\uFFFD") - 1
		}
		b = b[size:]
	}
	return n
}

// toValidUTF8 returns b with each byte that is not UTF-8 replaced with U+FFFD, as ranging
// over a string does (strings.ToValidUTF8 would fold a run of them into one).
func toValidUTF8(b []byte) []byte {
	out := make([]byte, 0, validLen(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// trimPartialRune drops an incomplete UTF-8 sequence cut off at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

func lineEnding(crlf bool) string {
	if crlf {
		return "\r\n"
	}
	return "\n"
}

// cutRunes returns the first n characters of b.
func cutRunes(b []byte, n int) []byte {
	for i := range string(b) {
		if n == 0 {
			return b[:i]
		}
		n--
	}
	return b
}
