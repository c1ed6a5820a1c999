package search

import (
	"errors"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/llmfs/llmfs/internal/glob"
)

// filter decides which files a grep looks at: an optional glob and an optional type.
type filter struct {
	glob    string // doublestar pattern; "" for none
	match   glob.Matcher
	typeM   []glob.Matcher
	negate  bool // the glob began with "!": matching files are left out
	byPath  bool // the glob has a "/": match the path relative to the search dir
	typeGlb []string
}

// newFilter checks and compiles a glob filter and a type name.
func newFilter(pattern, typ string) (*filter, error) {
	f := &filter{}
	if pattern != "" {
		g := pattern
		if strings.HasPrefix(g, "!") {
			f.negate = true
			g = g[1:]
		}
		g = strings.TrimPrefix(g, "/")
		if g == "" || !doublestar.ValidatePattern(g) {
			return nil, &PatternError{Kind: "glob", Pattern: pattern, Err: doublestar.ErrBadPattern}
		}
		f.glob = g
		f.match = glob.Compile(g)
		f.byPath = strings.Contains(g, "/")
	}
	if typ != "" {
		g, ok := types[strings.ToLower(typ)]
		if !ok {
			return nil, &PatternError{Kind: "type", Pattern: typ, Err: errors.New("unknown file type; known types: " + strings.Join(Types(), ", "))}
		}
		f.typeGlb = g
		for _, p := range g {
			f.typeM = append(f.typeM, glob.Compile(p))
		}
	}
	return f, nil
}

// rule rules on the file at rel (relative to the search dir) as ripgrep does: a positive
// glob that matches takes the file even if hidden, ignored or of another type, one that
// does not leaves it out; a negated glob that matches leaves it out; a type that matches takes the file even
// if hidden (not if ignored), one that does not leaves it out.
func (f *filter) rule(rel string) verdict {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if f.glob != "" {
		subject := base
		if f.byPath {
			subject = rel
		}
		ok := f.match.Match(subject)
		switch {
		case ok && f.negate, !ok && !f.negate:
			return exclude
		case ok:
			return include // a glob that matches overrides the type too
		}
	}
	if f.typeGlb != nil {
		for _, m := range f.typeM {
			if m.Match(base) {
				return overHidden
			}
		}
		return exclude
	}
	return neutral
}

func (f *filter) none() bool { return f.glob == "" && f.typeGlb == nil }
