// Package textdiff renders the change between two texts as a short unified diff.
package textdiff

import (
	"fmt"
	"strings"
)

// Unified returns a unified diff from a to b with context lines around one hunk that spans
// every changed line, cut to maxLines lines of body. Equal texts give "".
//
// The hunk is found by trimming the common leading and trailing lines, which is exact for
// the local edits llmfs makes and never quadratic.
func Unified(name, a, b string, context, maxLines int) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	start := max(pre-context, 0)
	aEnd := min(len(al)-suf+context, len(al))
	bEnd := min(len(bl)-suf+context, len(bl))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", name, name)
	fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(start, aEnd-start), span(start, bEnd-start))
	var body []string
	for _, l := range al[start:pre] {
		body = append(body, " "+l)
	}
	for _, l := range al[pre : len(al)-suf] {
		body = append(body, "-"+l)
	}
	for _, l := range bl[pre : len(bl)-suf] {
		body = append(body, "+"+l)
	}
	for _, l := range al[len(al)-suf : aEnd] {
		body = append(body, " "+l)
	}
	if maxLines > 0 && len(body) > maxLines {
		n := len(body) - maxLines
		body = append(body[:maxLines], fmt.Sprintf("... (%d more diff lines)", n))
	}
	for _, l := range body {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	return sb.String()
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s into lines without their endings ("\r" stays, to show CRLF changes).
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
