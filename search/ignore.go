package search

import (
	"bytes"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreFiles are read in each directory, later ones taking precedence, as in ripgrep.
var ignoreFiles = []string{".gitignore", ".ignore"}

// ignorer holds the patterns of one ignore file and, through parent, those of the files
// read before it: the same directory's earlier files and the directories above.
//
// Matching relies on the walk: a directory that is ignored is not entered, so a pattern
// only has to be tried on the entry itself, never on its parent directories (as git,
// which cannot re-include a file below an excluded directory either).
type ignorer struct {
	parent   *ignorer
	dir      string // store name of the directory holding the ignore file
	patterns []ignorePattern
}

// ignorePattern is one line of a .gitignore file (gitignore(5)).
type ignorePattern struct {
	glob     string // doublestar pattern
	anchored bool   // matched against the path below dir; otherwise against the base name
	negate   bool   // "!": re-include
	dirOnly  bool   // trailing "/": matches directories only
	kind     uint8  // fast paths, below
	lit      string // the literal for the fast paths
}

// Fast paths for the commonest patterns: "name", "*.ext", "prefix*".
const (
	globKind = iota
	exactKind
	suffixKind
	prefixKind
)

// parseIgnore adds the patterns of an ignore file found in the directory dir (a store name)
// to ig, returning the new innermost ignorer.
func parseIgnore(ig *ignorer, dir string, data []byte) *ignorer {
	var ps []ignorePattern
	for line := range bytes.Lines(data) {
		if p, ok := parsePattern(string(line)); ok {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ig
	}
	return &ignorer{parent: ig, dir: dir, patterns: ps}
}

func parsePattern(s string) (ignorePattern, bool) {
	var p ignorePattern
	s = strings.TrimRight(s, "\r\n")
	// Trailing spaces go, unless escaped with a backslash.
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, "\\ ") {
		s = s[:len(s)-1]
	}
	if s == "" || s[0] == '#' {
		return p, false
	}
	if s[0] == '!' {
		p.negate = true
		s = s[1:]
	} else if strings.HasPrefix(s, `\!`) || strings.HasPrefix(s, `\#`) {
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.dirOnly = true
		s = strings.TrimRight(s, "/")
	}
	if strings.HasPrefix(s, "**/") && !strings.Contains(s[3:], "/") {
		s = s[3:] // "**/name" is "name" at any depth
	}
	if strings.Contains(s, "/") {
		p.anchored = true
		s = strings.TrimPrefix(s, "/")
	}
	if s == "" || !doublestar.ValidatePattern(s) {
		return p, false
	}
	p.glob = s
	if !p.anchored {
		meta := strings.IndexAny(s, `*?[\{`)
		switch {
		case meta < 0:
			p.kind, p.lit = exactKind, s
		case meta == 0 && s[0] == '*' && !strings.ContainsAny(s[1:], `*?[\{`):
			p.kind, p.lit = suffixKind, s[1:]
		case meta == len(s)-1 && s[meta] == '*':
			p.kind, p.lit = prefixKind, s[:meta]
		}
	}
	return p, true
}

// match reports whether the pattern matches the entry with base name base, and path rel
// below the ignore file's directory.
func (p *ignorePattern) match(rel, base string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	switch p.kind {
	case exactKind:
		return base == p.lit
	case suffixKind:
		return strings.HasSuffix(base, p.lit)
	case prefixKind:
		return strings.HasPrefix(base, p.lit)
	}
	subject := base
	if p.anchored {
		subject = rel
	}
	return doublestar.MatchUnvalidated(p.glob, subject)
}

// ignored reports whether the entry name (a store name, with base name base) is ignored.
// The last matching pattern of the innermost ignore file that has one decides.
func (ig *ignorer) ignored(name, base string, isDir bool) bool {
	for ; ig != nil; ig = ig.parent {
		rel := name
		if ig.dir != "." {
			if len(name) <= len(ig.dir) || name[len(ig.dir)] != '/' || !strings.HasPrefix(name, ig.dir) {
				continue // not below this file's directory
			}
			rel = name[len(ig.dir)+1:]
		}
		for i := len(ig.patterns) - 1; i >= 0; i-- {
			p := &ig.patterns[i]
			if p.match(rel, base, isDir) {
				return !p.negate
			}
		}
	}
	return false
}
