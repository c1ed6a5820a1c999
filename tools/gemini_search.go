package tools

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
	"github.com/llmfs/llmfs/search"
)

// geminiGrepLimit is grep_search's default total_max_matches, as in gemini-cli.
const geminiGrepLimit = 100

// hide keeps p out of the schema while the decoder still takes it: an older name of a
// parameter, accepted from models trained on it without costing every prompt its words.
func hide(p param) param { p.hidden = true; return p }

// geminiGrep is grep_search, Gemini CLI's content search since February 2026, with the
// parameters of its Gemini 3 declaration. As there, it ignores case unless case_sensitive
// is true and counts total_max_matches in matching lines. exclude_pattern and
// max_matches_per_file drop matching lines (context lines stay).
func geminiGrep() tool {
	return tool{
		name: "grep_search", output: geminiGrepOut(), op: llmfs.OpGrep, readOnly: true, idempotent: true,
		description: "Search file contents for a regular expression (RE2), ignoring case unless case_sensitive. Returns matching " +
			"lines as path:line:text.",
		params: []param{
			str("pattern", "Regular expression to search for.", true),
			str("dir_path", "Directory or file to search; default the root.", false),
			str("include_pattern", "Only files matching this glob (*.ts, src/**).", false),
			boolean("names_only", "Only the paths of matching files."),
			boolean("case_sensitive", "Match case."),
			boolean("fixed_strings", "pattern is literal text."),
			integer("context", "Lines of context around each match.", 0),
			boolean("no_ignore", "Search ignored files too."),
			integer("total_max_matches", "Most matching lines (default 100).", 1),
			// gemini-cli's other parameters, and older names, taken but not shown.
			hide(str("exclude_pattern", "Leave out lines matching this regular expression.", false)),
			hide(integer("max_matches_per_file", "Most matching lines per file.", 1)),
			hide(integer("after", "Lines of context after each match.", 0)),
			hide(integer("before", "Lines of context before each match.", 0)),
			hide(str("path", "Same as dir_path (older name).", false)),
			hide(str("include", "Same as include_pattern (older name).", false)),
		},
		run: runGeminiGrep,
	}
}

// geminiSearchOld is grep_search under its name before February 2026, for models trained
// on it; it is not offered.
func geminiSearchOld() tool {
	t := geminiGrep()
	t.name, t.hidden = "search_file_content", true
	return t
}

func runGeminiGrep(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
	dir, err := either(a, "dir_path", "path", false)
	if err != nil {
		return nil, err
	}
	include, err := either(a, "include_pattern", "include", false)
	if err != nil {
		return nil, err
	}
	pattern := a.String("pattern", "")
	if a.Bool("fixed_strings", false) {
		pattern = regexp.QuoteMeta(pattern)
	}
	var exclude *regexp.Regexp
	if a.Has("exclude_pattern") {
		if exclude, err = regexp.Compile(a.String("exclude_pattern", "")); err != nil {
			return nil, invalid("exclude_pattern: %v", err)
		}
	}
	around := int(a.Int("context", 0))
	opts := llmfs.GrepOptions{Pattern: pattern, Path: dir, Glob: include, Mode: llmfs.GrepContent, LineNumbers: true,
		IgnoreCase: !a.Bool("case_sensitive", false), NoIgnore: a.Bool("no_ignore", false),
		Before: int(a.Int("before", int64(around))), After: int(a.Int("after", int64(around))), MaxBytes: llmfs.DefaultGrepBytes}
	if a.Bool("names_only", false) {
		opts.Mode = llmfs.GrepFiles
	}
	limit, perFile := int(a.Int("total_max_matches", geminiGrepLimit)), int(a.Int("max_matches_per_file", 0))
	var kept []llmfs.GrepEntry
	matches, inFile, last, more := 0, 0, "", false
	res, err := tb.ws.GrepFunc(ctx, opts, func(e llmfs.GrepEntry) bool {
		if e.Path != last && e.Kind != search.KindSeparator {
			last, inFile = e.Path, 0
		}
		if e.Kind == search.KindMatch || e.Kind == search.KindFile {
			if exclude != nil && e.Kind == search.KindMatch && exclude.MatchString(e.Text) {
				return true
			}
			if perFile > 0 && inFile == perFile {
				return true
			}
			if matches == limit {
				more = true
				return false
			}
			matches++
			inFile++
		}
		kept = append(kept, e)
		return true
	})
	if err != nil {
		return nil, err
	}
	for len(kept) > 0 && kept[len(kept)-1].Kind == search.KindSeparator {
		kept = kept[:len(kept)-1]
	}
	res.Entries = kept
	out := map[string]any{"output": res.Text(), "count": matches} // matches (or files with names_only), not context lines
	if more || res.Truncated {
		out["truncated"] = true
	}
	return out, nil
}

func geminiGlob() tool {
	return tool{
		name: "glob", output: findOut(), op: llmfs.OpFind, readOnly: true, idempotent: true,
		description: "Find files whose paths match a glob pattern (src/**/*.ts, **/*.md), newest first, relative to the workspace root. " +
			"Matching ignores case unless case_sensitive. Files ignored by .gitignore are skipped unless respect_git_ignore is false.",
		params: []param{
			str("pattern", "The glob pattern.", true),
			str("dir_path", "Directory to search in; default the root.", false),
			boolean("case_sensitive", "Match case."),
			boolean("respect_git_ignore", "Skip files ignored by .gitignore (default true)."),
			hide(str("path", "Same as dir_path (older name).", false)),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			dir, err := either(a, "dir_path", "path", false)
			if err != nil {
				return nil, err
			}
			pat := a.String("pattern", "")
			if strings.TrimSpace(pat) == "" {
				return nil, invalid("the pattern must not be empty or only spaces")
			}
			opts := llmfs.FindOptions{Path: dir, Limit: DefaultHeadLimit, NoIgnore: !a.Bool("respect_git_ignore", true)}
			res := tb.findLiteral(ctx, pat, dir)
			if len(res.Files) == 0 {
				if !a.Bool("case_sensitive", false) {
					pat = foldGlob(pat)
				}
				if res, err = tb.ws.Find(ctx, pat, opts); err != nil {
					return nil, err
				}
			}
			files := make([]string, len(res.Files))
			for i, f := range res.Files {
				files[i] = f.Path
			}
			out := map[string]any{"files": files, "count": len(files)}
			if res.Truncated {
				out["truncated"] = true
			}
			return out, nil
		},
	}
}

// findLiteral finds the file a pattern names when read as a literal path below dir, as
// gemini-cli does before globbing: Next.js routes ("app/[id]/page.tsx", "(group)") hold
// glob characters. It looks only in the one directory the path names, so a real glob
// costs no second walk; a pattern naming no file finds nothing.
func (tb *Toolbox) findLiteral(ctx context.Context, pat, dir string) *llmfs.FindResult {
	res := &llmfs.FindResult{}
	if !strings.ContainsAny(pat, "[]{}") || strings.ContainsAny(pat, "*?") {
		return res
	}
	full := path.Join(dir, pat)
	entries, err := tb.ws.ListNames(ctx, path.Join(dir, path.Dir(pat)))
	if err != nil {
		return res
	}
	for _, e := range entries {
		if e.Name == path.Base(full) && e.Type == llmfs.TypeFile {
			res.Files = []llmfs.FoundFile{{Path: tb.ws.Paths().Rel(full)}}
		}
	}
	return res
}

// foldGlob makes a glob match names of either case: each letter becomes a class of its
// cases ("a" to "[aA]"), and a class gains the other case of its letters and ranges
// ("[a-c]" to "[a-cA-C]"). Escaped characters are matched as they are.
func foldGlob(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); {
		r, n := utf8.DecodeRuneInString(pat[i:])
		switch {
		case r == '\\' && i+n < len(pat):
			_, m := utf8.DecodeRuneInString(pat[i+n:])
			b.WriteString(pat[i : i+n+m])
			i += n + m
			continue
		case r == '[':
			if end := strings.IndexByte(pat[i+1:], ']'); end > 0 {
				body := pat[i+1 : i+1+end]
				neg := ""
				if body[0] == '!' || body[0] == '^' {
					neg, body = body[:1], body[1:]
				}
				b.WriteString("[" + neg + body + swapCase(body) + "]")
				i += end + 2
				continue
			}
		case unicode.IsLetter(r) && unicode.SimpleFold(r) != r:
			b.WriteByte('[')
			for f := r; ; {
				b.WriteRune(f)
				if f = unicode.SimpleFold(f); f == r {
					break
				}
			}
			b.WriteByte(']')
			i += n
			continue
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// swapCase turns the letters of s to their other case.
func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if u := unicode.ToUpper(r); u != r {
			return u
		}
		return unicode.ToLower(r)
	}, s)
}

// geminiDefaultExcludes are the directories read_many_files leaves out of what its globs
// find, as gemini-cli's default excludes do, whether or not a .gitignore names them.
var geminiDefaultExcludes = []string{"node_modules", ".git", "bower_components", ".svn", ".hg",
	".vscode", ".idea", "dist", "build", "coverage", "__pycache__"}

// manyNames is what one of read_many_files' paths or patterns names: a path without glob
// characters as it is; a pattern naming a file literally ("app/[id]/page.tsx"), that
// file; any other pattern, the files it matches, those in geminiDefaultExcludes left out
// when excludes is true.
func (tb *Toolbox) manyNames(ctx context.Context, pat string, excludes bool) ([]string, error) {
	if !strings.ContainsAny(pat, "*?[{") {
		return []string{pat}, nil
	}
	// The excluded are left out after the search: let enough through that they cannot
	// crowd out the rest in a tree without a .gitignore.
	opts := llmfs.FindOptions{Limit: maxManyFiles + 1}
	if excludes {
		opts.Limit = 100 * maxManyFiles
	}
	res := tb.findLiteral(ctx, pat, "")
	if len(res.Files) == 0 {
		var err error
		if res, err = tb.ws.Find(ctx, pat, opts); err != nil {
			return nil, err
		}
	}
	var names []string
	for _, f := range res.Files {
		if !excludes || !underAny(f.Path, geminiDefaultExcludes) {
			names = append(names, f.Path)
		}
	}
	return names, nil
}

// underAny reports whether a directory of the slash-separated path p is named one of dirs.
func underAny(p string, dirs []string) bool {
	elems := strings.Split(p, "/")
	for _, e := range elems[:len(elems)-1] {
		if slices.Contains(dirs, e) {
			return true
		}
	}
	return false
}
