package search

import (
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFiles are read in each directory, later ones taking precedence, as in ripgrep.
var ignoreFiles = []string{".gitignore", ".ignore"}

// ignorer holds the ignore patterns in force in one directory: its own files' and, through
// parent, those of every directory above it.
type ignorer struct {
	parent   *ignorer
	patterns []gitignore.Pattern
}

// parseIgnore adds the patterns of an ignore file found in the directory dir (a store name)
// to ig, returning the new innermost ignorer.
func parseIgnore(ig *ignorer, dir string, data []byte) *ignorer {
	var domain []string
	if dir != "." {
		domain = strings.Split(dir, "/")
	}
	var ps []gitignore.Pattern
	for line := range bytes.Lines(data) {
		s := strings.TrimRight(string(line), "\r\n")
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(s, domain))
	}
	if len(ps) == 0 {
		return ig
	}
	return &ignorer{parent: ig, patterns: ps}
}

// ignored reports whether the store name (split into its elements) is ignored. The last
// matching pattern of the innermost directory that has one decides.
func (ig *ignorer) ignored(elems []string, isDir bool) bool {
	for ; ig != nil; ig = ig.parent {
		for i := len(ig.patterns) - 1; i >= 0; i-- {
			switch ig.patterns[i].Match(elems, isDir) {
			case gitignore.Exclude:
				return true
			case gitignore.Include:
				return false
			}
		}
	}
	return false
}
