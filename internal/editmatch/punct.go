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

// numberPrefix returns the line number a numbered read put before l and l without it:
// optional spaces, then digits followed by a tab or "→" (cat -n, as the rtc dialect's
// read and Claude Code show lines), or "L" and digits followed by ": " (Codex), or digits
// alone (a blank line whose tab was lost).
func numberPrefix(l string) (int, string, bool) {
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
		return 0, "", false
	}
	n, _ := strconv.Atoi(s[:i])
	rest := s[i:]
	switch {
	case codex && strings.HasPrefix(rest, ": "):
		return n, rest[2:], true
	case codex && rest == ":":
		return n, "", true
	case codex:
		return 0, "", false
	case strings.HasPrefix(rest, "\t"):
		return n, rest[1:], true
	case strings.HasPrefix(rest, "→"):
		return n, rest[len("→"):], true
	case rest == "":
		return n, "", true
	}
	return 0, "", false
}

// stripPrefixes removes line-number prefixes from lines when every line has one and the
// numbers count up by one; otherwise it reports false.
func stripPrefixes(lines []string) ([]string, bool) {
	out := make([]string, len(lines))
	want := -1
	body := false
	for i, l := range lines {
		n, rest, ok := numberPrefix(l)
		if !ok || (want >= 0 && n != want) {
			return nil, false
		}
		want = n + 1
		out[i] = rest
		if strings.TrimSpace(rest) != "" {
			body = true
		}
	}
	return out, body
}

// stripSomePrefixes removes a line-number prefix from each line of a replacement that
// carries one (a model copying numbered lines numbers the kept ones, rarely the new).
func stripSomePrefixes(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		_, rest, ok := numberPrefix(l)
		if !ok {
			continue
		}
		// A line of digits alone is only a number prefix in the padded cat -n form.
		if rest == "" && !strings.HasSuffix(l, ":") && !strings.ContainsAny(l, "\t→") && (len(l) < 6 || l[0] != ' ') {
			continue
		}
		out[i] = rest
	}
	return out
}
