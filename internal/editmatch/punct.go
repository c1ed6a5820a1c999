package editmatch

import (
	"strconv"
	"strings"
)

// asciiPunct maps typographic punctuation and unusual spaces, which models and word
// processors produce, to the ASCII a source file most likely holds.
var asciiPunct = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'", "\u2032", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`, "\u2033", `"`, "\u00AB", `"`, "\u00BB", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2026", "...",
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
	"\u200B", "", "\uFEFF", "",
)

// ASCIIPunct returns s with typographic quotes, dashes, ellipses and unusual spaces in
// their ASCII forms.
func ASCIIPunct(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return asciiPunct.Replace(s)
		}
	}
	return s
}

// Prefix styles of numbered reads.
const (
	styleTab   = 1 << iota // "     7\t" (cat -n; the rtc and anthropic reads)
	styleArrow             // "     7→" (Claude Code)
	styleCodex             // "L7: " (Codex)
	styleBare              // "     7": a blank line whose tab was lost
)

// numberPrefix returns the line number a numbered read put before l, l without it, and
// the style of the prefix: optional spaces, then digits followed by a tab or "→", or "L"
// and digits followed by ": ", or digits alone.
func numberPrefix(l string) (int, string, int, bool) {
	s := strings.TrimLeft(l, " ")
	codex := strings.HasPrefix(s, "L")
	if codex {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 {
		return 0, "", 0, false
	}
	n, _ := strconv.Atoi(s[:i])
	rest := s[i:]
	switch {
	case codex && strings.HasPrefix(rest, ": "):
		return n, rest[2:], styleCodex, true
	case codex && rest == ":":
		return n, "", styleCodex, true
	case codex:
		return 0, "", 0, false
	case strings.HasPrefix(rest, "\t"):
		return n, rest[1:], styleTab, true
	case strings.HasPrefix(rest, "→"):
		return n, rest[len("→"):], styleArrow, true
	case rest == "":
		return n, "", styleBare, true
	}
	return 0, "", 0, false
}

// stripPrefixes removes line-number prefixes from lines when every line has one and the
// numbers count up by one, and returns the styles seen; otherwise it reports false.
func stripPrefixes(lines []string) ([]string, int, bool) {
	out := make([]string, len(lines))
	want, styles := -1, 0
	body := false
	for i, l := range lines {
		n, rest, style, ok := numberPrefix(l)
		if !ok || (want >= 0 && n != want) {
			return nil, 0, false
		}
		want = n + 1
		styles |= style
		out[i] = rest
		if strings.TrimSpace(rest) != "" {
			body = true
		}
	}
	return out, styles, body
}

// stripSomePrefixes removes from each line of a replacement a line-number prefix of one of
// the styles old had (a model copying numbered lines numbers the kept ones, rarely the
// new). Digits alone count only in the padded cat -n form.
func stripSomePrefixes(lines []string, styles int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		_, rest, style, ok := numberPrefix(l)
		switch {
		case !ok:
		case style == styleBare && (len(l) < 6 || l[0] != ' ' || styles&styleTab == 0):
		case style == styleBare || style&styles != 0:
			out[i] = rest
		}
	}
	return out
}
