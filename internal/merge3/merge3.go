// Package merge3 is a three-way merge of texts, line by line, as diff3 and git merge-file
// make it: given the base both sides started from, ours and theirs, the regions only one
// side changed take that side's lines, regions both sides changed alike take them once,
// and regions both changed differently are conflicts, written with both sides between
// markers.
//
// Lines keep their endings, so a CRLF file merges as CRLF and a last line without a
// newline stays without one (and counts as a different line from the same text with one).
package merge3

import (
	"bytes"
	"slices"
)

// Options label the conflict markers and choose their style.
type Options struct {
	Ours, Base, Theirs string // the labels after the markers; empty is "ours", "base", "theirs"
	// Diff3 adds the base's lines to each conflict, after a "|||||||" marker.
	Diff3 bool
}

// A Result is a merge's outcome.
type Result struct {
	Text      []byte
	Conflicts []Conflict // in order; the conflicts are marked in Text
}

// Clean reports whether the merge had no conflict.
func (r Result) Clean() bool { return len(r.Conflicts) == 0 }

// A Conflict is a region both sides changed differently: the lines of each, ending
// included, and where it starts in the base (0-based line).
type Conflict struct {
	BaseLine           int
	Base, Ours, Theirs []byte
}

// Merge merges the changes from base to ours and from base to theirs.
func Merge(base, ours, theirs []byte, opts Options) Result {
	b, o, t := Lines(base), Lines(ours), Lines(theirs)
	mo, mt := match(b, o), match(b, t)
	var out bytes.Buffer
	var res Result
	i, j, k := 0, 0, 0
	for i < len(b) || j < len(o) || k < len(t) {
		// The next base line both sides kept, and where it is on each side.
		ni := i
		for ni < len(b) && (mo[ni] < 0 || mt[ni] < 0) {
			ni++
		}
		nj, nk := len(o), len(t)
		if ni < len(b) {
			nj, nk = mo[ni], mt[ni]
		}
		if ni == i && nj == j && nk == k {
			out.Write(b[i])
			i, j, k = i+1, j+1, k+1
			continue
		}
		cb, co, ct := b[i:ni], o[j:nj], t[k:nk]
		switch {
		case equal(co, cb):
			writeAll(&out, ct)
		case equal(ct, cb), equal(co, ct):
			writeAll(&out, co)
		default:
			c := Conflict{BaseLine: i, Base: bytes.Join(cb, nil), Ours: bytes.Join(co, nil), Theirs: bytes.Join(ct, nil)}
			res.Conflicts = append(res.Conflicts, c)
			mark(&out, c, opts, eol(ours, base))
		}
		i, j, k = ni, nj, nk
	}
	res.Text = out.Bytes()
	if res.Text == nil {
		res.Text = []byte{}
	}
	return res
}

// mark writes a conflict with its markers, each on a line of its own.
func mark(out *bytes.Buffer, c Conflict, opts Options, nl string) {
	label := func(l, def string) string {
		if l == "" {
			l = def
		}
		return " " + l
	}
	section := func(marker, l string, body []byte) {
		out.WriteString(marker + l + nl)
		out.Write(body)
		if len(body) > 0 && body[len(body)-1] != '\n' {
			out.WriteString(nl)
		}
	}
	section("<<<<<<<", label(opts.Ours, "ours"), c.Ours)
	if opts.Diff3 {
		section("|||||||", label(opts.Base, "base"), c.Base)
	}
	section("=======", "", c.Theirs)
	out.WriteString(">>>>>>>" + label(opts.Theirs, "theirs") + nl)
}

// eol returns the line ending of the first line of the first text that has one.
func eol(texts ...[]byte) string {
	for _, t := range texts {
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			if i > 0 && t[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

func writeAll(out *bytes.Buffer, lines [][]byte) {
	for _, l := range lines {
		out.Write(l)
	}
}

func equal(a, b [][]byte) bool { return slices.EqualFunc(a, b, bytes.Equal) }

// Lines splits s after each "\n"; the last line has no ending when s does not end in one.
func Lines(s []byte) [][]byte {
	var out [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
