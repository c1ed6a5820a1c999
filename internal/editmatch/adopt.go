package editmatch

import "strings"

// Adopt gives new, the replacement of an exact match of old in text, the file's
// conventions where the model's text breaks them in a way no file wants: lines indented
// with spaces in a file indented with tabs (or the reverse), and typographic quotes in a
// file that has none. It changes nothing when old itself shows the other convention (the
// file then has it too) and returns the step that describes the change: [Exact] when
// there is none, else [Indent] or [Unicode].
func Adopt(text, old, new string) (string, Step) {
	step := Exact
	if style := indentStyle(text); style != 0 && !strings.Contains(old, "\n"+otherIndent(style)) && !strings.HasPrefix(old, otherIndent(style)) {
		if n, ok := reindentLines(text, new, style); ok {
			new, step = n, Indent
		}
	}
	if strings.ContainsAny(new, "\u201c\u201d\u2018\u2019") && !strings.ContainsAny(text, "\u201c\u201d\u2018\u2019") {
		n := strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u2018", "'", "\u2019", "'").Replace(new)
		if n != new {
			new = n
			if step == Exact {
				step = Unicode
			}
		}
	}
	return new, step
}

// indentStyle is '\t' when most indented lines of text start with a tab, ' ' when most
// start with a space, 0 when it has none. Lines inside a Markdown code fence (``` or ~~~)
// are another file's convention, not the document's: a README whose only tabs are in a
// Go example is not a tab-indented file, and its list items keep their spaces.
func indentStyle(text string) byte {
	tabs, spaces := 0, 0
	fenced := false
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		switch {
		case strings.HasPrefix(l, "\t"):
			tabs++
		case strings.HasPrefix(l, " ") && strings.TrimSpace(l) != "":
			spaces++
		}
	}
	switch {
	case tabs > 3*spaces && tabs > 0:
		return '\t'
	case spaces > 3*tabs && spaces > 0:
		return ' '
	}
	return 0
}

func otherIndent(style byte) string {
	if style == '\t' {
		return " "
	}
	return "\t"
}

// reindentLines rewrites the leading indentation of new's lines that use the other
// style: spaces become tabs by the unit their widths share, tabs become the file's unit of
// spaces.
func reindentLines(text, new string, style byte) (string, bool) {
	var widths []int
	for l := range strings.Lines(new) {
		if ind := leading(l); ind != "" && ind[0] != style && strings.TrimSpace(l) != "" {
			widths = append(widths, len(ind))
		}
	}
	if len(widths) == 0 {
		return new, false
	}
	unit := spaceUnit(new)
	if style == ' ' {
		unit = spaceUnit(text)
	}
	var b strings.Builder
	for l := range strings.Lines(new) {
		ind := leading(l)
		if ind == "" || ind[0] == style || strings.TrimSpace(l) == "" {
			b.WriteString(l)
			continue
		}
		if style == '\t' {
			n := columns(ind)
			b.WriteString(strings.Repeat("\t", n/unit) + strings.Repeat(" ", n%unit))
		} else {
			b.WriteString(strings.Repeat(" ", strings.Count(ind, "\t")*unit) + strings.ReplaceAll(ind, "\t", ""))
		}
		b.WriteString(l[len(ind):])
	}
	return b.String(), true
}
