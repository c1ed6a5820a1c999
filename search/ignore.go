package search

import (
	"bytes"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/llmfs/llmfs/internal/glob"
)

// The kinds of ignore file, in ripgrep's order of precedence, lowest first: a match in a
// file of a higher kind wins over one in a lower kind, wherever the files are; within a
// kind the innermost directory's file decides.
const (
	kindExclude = iota // .git/info/exclude of a repository
	kindGit            // .gitignore
	kindIgnore         // .ignore
	kindRG             // .rgignore
	numKinds
)

// ignoreFiles are the ignore files read in each directory, with their kinds.
var ignoreFiles = []struct {
	name string
	kind uint8
}{{".gitignore", kindGit}, {".ignore", kindIgnore}, {".rgignore", kindRG}}

// excludeFile is read in a directory that holds a .git directory: the root of a repository.
const excludeFile = ".git/info/exclude"

// isIgnoreFile reports whether base is the name of an ignore file read in each directory.
func isIgnoreFile(base string) bool {
	for _, f := range ignoreFiles {
		if f.name == base {
			return true
		}
	}
	return false
}

// ignorer holds the patterns of one ignore file and, through parent, those of the files
// read before it: the same directory's other files and the directories above.
//
// Matching relies on the walk: a directory that is ignored is not entered, so a pattern
// only has to be tried on the entry itself, never on its parent directories (as git,
// which cannot re-include a file below an excluded directory either).
type ignorer struct {
	parent    *ignorer
	dir       string // store name of the directory holding the ignore file
	kind      uint8
	patterns  []ignorePattern
	negations bool // this file or one before it has a "!" pattern: hidden names may be let in
}

// ignoreMatch is what the ignore files say of an entry.
type ignoreMatch uint8

const (
	noMatch     ignoreMatch = iota
	ignored                 // a pattern excludes it
	whitelisted             // a "!" pattern takes it back, even when hidden
)

// ignorePattern is one line of a .gitignore file (gitignore(5)).
type ignorePattern struct {
	glob     string // doublestar pattern
	anchored bool   // matched against the path below dir; otherwise against the base name
	negate   bool   // "!": re-include
	dirOnly  bool   // trailing "/": matches directories only
	kind     uint8  // fast paths, below
	lit      string // the literal for the fast paths
	fast     glob.Matcher
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
	return parseIgnoreKind(ig, dir, kindIgnore, data)
}

// utf8BOM starts some files written on Windows; git and ripgrep skip it.
const utf8BOM = "\xef\xbb\xbf"

// parseIgnoreKind is parseIgnore for a file of the given kind.
func parseIgnoreKind(ig *ignorer, dir string, kind uint8, data []byte) *ignorer {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	var ps []ignorePattern
	for line := range bytes.Lines(data) {
		if p, ok := parsePattern(string(line)); ok {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ig
	}
	neg := ig != nil && ig.negations
	for _, p := range ps {
		neg = neg || p.negate
	}
	return &ignorer{parent: ig, dir: dir, kind: kind, patterns: ps, negations: neg}
}

// withoutGit returns the chain ig without its .gitignore and exclude files: what applies
// inside a nested repository, where the outer repository's git rules stop (as in git and
// ripgrep); .ignore and .rgignore files go on applying.
func (ig *ignorer) withoutGit() *ignorer {
	var keep []*ignorer
	for ; ig != nil; ig = ig.parent {
		if ig.kind != kindGit && ig.kind != kindExclude {
			keep = append(keep, ig)
		}
	}
	var out *ignorer
	for i := len(keep) - 1; i >= 0; i-- {
		c := *keep[i]
		c.parent = out
		c.negations = out.mayWhitelist()
		for _, p := range c.patterns {
			c.negations = c.negations || p.negate
		}
		out = &c
	}
	return out
}

// mayWhitelist reports whether some file of the chain has a "!" pattern.
func (ig *ignorer) mayWhitelist() bool { return ig != nil && ig.negations }

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
	if strings.HasSuffix(s, "/**") && len(s) > 3 {
		// "dir/**" matches what is inside dir, not dir itself, so that a later
		// "!dir/file" can take the file back: dir must be entered.
		s = s[:len(s)-3] + "/*/**"
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
	p.fast = glob.Compile(s)
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
	return p.fast.Match(subject)
}

// match says what the ignore files say of the entry name (a store name, with base name
// base), as ripgrep decides: in each kind of file the last matching pattern of the
// innermost file that has one decides, and the highest kind with a match wins.
func (ig *ignorer) match(name, base string, isDir bool) ignoreMatch {
	var found [numKinds]ignoreMatch
	for ; ig != nil; ig = ig.parent {
		if found[ig.kind] != noMatch {
			continue
		}
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
				found[ig.kind] = ignored
				if p.negate {
					found[ig.kind] = whitelisted
				}
				break
			}
		}
	}
	for k := numKinds - 1; k >= 0; k-- {
		if found[k] != noMatch {
			return found[k]
		}
	}
	return noMatch
}

// ignored reports whether the entry name (a store name, with base name base) is ignored.
func (ig *ignorer) ignored(name, base string, isDir bool) bool {
	return ig.match(name, base, isDir) == ignored
}
