package tools

import (
	"context"
	"path"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// DefaultHeadLimit caps find and grep results in tool calls unless head_limit says
// otherwise (0: no cap); people on the command line get everything.
const DefaultHeadLimit = 250

// The search tools are the same in both dialects but for their names and the form of the
// paths they show: relative to the root in agentool, virtual ("/src/a.go") in rtc.

func findTool(name, pathDesc string) tool {
	return tool{
		name: name, output: findOut, op: llmfs.OpFind, readOnly: true, idempotent: true,
		description: "Find files by name with a glob pattern: * and ? within a name, ** across directories, {a,b} alternatives, [a-z] classes. " +
			"A pattern without / matches file names at any depth (*.go); one with / matches the path below the search directory " +
			"(cmd/**/main.go). Newest-modified files come first. Hidden files and files ignored by .gitignore are skipped. " +
			"At most head_limit paths (default 250) are returned; truncated says there were more.",
		params: []param{
			str("pattern", "Glob pattern, for example **/*.ts or *_test.go.", true),
			str("path", pathDesc, false),
			integer("head_limit", "Most paths to return (default 250; 0 for all).", 0),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			res, err := tb.ws.Find(ctx, a.String("pattern", ""), llmfs.FindOptions{
				Path:  a.String("path", ""),
				Limit: int(a.Int("head_limit", DefaultHeadLimit)),
			})
			if err != nil {
				return nil, err
			}
			files := make([]string, len(res.Files))
			for i, f := range res.Files {
				files[i] = tb.shown(f.Path)
			}
			out := map[string]any{"files": files, "count": len(files)}
			if res.Truncated {
				out["truncated"] = true
			}
			return out, nil
		},
	}
}

func grepTool(name, pathDesc string) tool {
	return tool{
		name: name, output: grepOut, op: llmfs.OpGrep, readOnly: true, idempotent: true,
		description: "Search file contents with a regular expression (Go RE2 syntax, like ripgrep). output_mode: files_with_matches " +
			"(default: the paths of matching files), content (matching lines as path:line:text, context lines as path-line-text, " +
			"-- between groups) or count (path:count). Filter files with glob (*.js, **/*.tsx) or type (go, py, js, ts, rust, ...). " +
			"-i ignores case; -A/-B/-C (or context) add lines of context in content mode; multiline lets patterns span lines. " +
			"At most head_limit entries (default 250) are returned; page on with offset (next_offset says where).",
		params: []param{
			str("pattern", "Regular expression to search for.", true),
			str("path", pathDesc, false),
			str("glob", "Only files whose name (or, with a /, path) matches this glob; a leading ! excludes them.", false),
			str("type", "Only files of this type, as ripgrep's --type: go, py, js, ts, rust, java, c, cpp, md, json, yaml, ...", false),
			enum("output_mode", "files_with_matches (default), content or count.", "files_with_matches", "content", "count"),
			boolean("-i", "Ignore case."),
			boolean("-n", "Show line numbers in content mode (default true)."),
			integer("-A", "Lines of context after each match (content mode).", 0),
			integer("-B", "Lines of context before each match (content mode).", 0),
			integer("-C", "Lines of context before and after each match (content mode).", 0),
			integer("context", "Same as -C.", 0),
			integer("head_limit", "Most entries to return (default 250; 0 for all).", 0),
			integer("offset", "Entries to skip before head_limit applies (default 0).", 0),
			boolean("multiline", "Let . match newlines and patterns span lines."),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			around := int(a.Int("context", a.Int("-C", 0)))
			if a.Has("context") && a.Has("-C") && a.Int("context", 0) != a.Int("-C", 0) {
				return nil, invalid("-C and context are the same setting; give one")
			}
			opts := llmfs.GrepOptions{
				Pattern:     a.String("pattern", ""),
				Path:        a.String("path", ""),
				Glob:        a.String("glob", ""),
				Type:        a.String("type", ""),
				Mode:        llmfs.GrepMode(a.String("output_mode", string(llmfs.GrepFiles))),
				IgnoreCase:  a.Bool("-i", false),
				LineNumbers: a.Bool("-n", true),
				Before:      int(a.Int("-B", int64(around))),
				After:       int(a.Int("-A", int64(around))),
				HeadLimit:   int(a.Int("head_limit", DefaultHeadLimit)),
				Offset:      int(a.Int("offset", 0)),
				Multiline:   a.Bool("multiline", false),
				MaxBytes:    llmfs.DefaultGrepBytes,
			}
			res, err := tb.ws.Grep(ctx, opts)
			if err != nil {
				return nil, err
			}
			for i := range res.Entries {
				if res.Entries[i].Path != "" {
					res.Entries[i].Path = tb.shown(res.Entries[i].Path)
				}
			}
			out := map[string]any{"mode": res.Mode, "output": res.Text(), "count": len(res.Entries)}
			if res.Truncated {
				out["truncated"] = true
				out["next_offset"] = res.NextOffset
			}
			if res.Binary {
				out["binary"] = true
			}
			if res.Note != "" {
				out["note"] = res.Note
			}
			return out, nil
		},
	}
}

// shown turns a path relative to the root, as the core reports search results, into the
// form the dialect shows: virtual in rtc, absolute with [Options.AbsolutePaths].
func (tb *Toolbox) shown(rel string) string {
	if tb.absolute && !path.IsAbs(rel) {
		return path.Join(tb.ws.Root(), rel)
	}
	if !tb.ws.IsVirtual() {
		return rel
	}
	if rel == "." {
		return "/"
	}
	return "/" + rel
}

var (
	fileFind = findTool("file_find", "Directory to search, absolute or relative to the workspace root; default the root.")
	fileGrep = grepTool("file_grep", "File or directory to search, absolute or relative to the workspace root; default the root.")
	rtcFind  = findTool("find", "Directory to search, a virtual path (default /).")
	rtcGrep  = grepTool("grep", "File or directory to search, a virtual path (default /).")
)
