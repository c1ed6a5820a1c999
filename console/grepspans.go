package console

import (
	"regexp"
	"unicode/utf8"
)

// matchSpans returns where pattern matches in text, as [start, end) offsets in UTF-16
// code units (what a JavaScript string counts), so the page can mark the matches without
// compiling Go's regular expression syntax in JavaScript. A pattern Go cannot compile, or
// one that matches the empty string only, gives none: the line is shown unmarked.
func matchSpans(re *regexp.Regexp, text string) [][2]int {
	if re == nil {
		return nil
	}
	var spans [][2]int
	for _, m := range re.FindAllStringIndex(text, 50) {
		if m[0] == m[1] {
			continue
		}
		spans = append(spans, [2]int{utf16Len(text[:m[0]]), utf16Len(text[:m[1]])})
	}
	return spans
}

// grepRegexp compiles the grep pattern as the search engine reads it, nil if it cannot.
func grepRegexp(pattern string, ignoreCase bool) *regexp.Regexp {
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	return re
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 && r != utf8.RuneError {
			n += 2
		} else {
			n++
		}
	}
	return n
}
