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
		name: name, output: findOut(), op: llmfs.OpFind, readOnly: true, idempotent: true,
		description: "Find files by glob (*.go: names at any depth; cmd/**/main.go: paths below path), newest first, skipping hidden " +
			"and .gitignored files. truncated: more than head_limit matched.",
		params: []param{
			str("pattern", "Glob, e.g. **/*.ts.", true),
			str("path", pathDesc, false),
			integer("head_limit", "Most paths (default 250; 0: all).", 0),
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
		name: name, output: grepOut(), op: llmfs.OpGrep, readOnly: true, idempotent: true,
		description: "Search file contents with a regex (RE2, as ripgrep). Modes: files_with_matches (default), content (path:line:text) " +
			"or count. Page with offset at next_offset.",
		params: []param{
			str("pattern", "Regular expression.", true),
			str("path", pathDesc, false),
			str("glob", "Glob of names or paths; ! excludes.", false),
			str("type", "rg --type, e.g. go, py.", false),
			enum("output_mode", "Default files_with_matches.", "files_with_matches", "content", "count"),
			boolean("-i", "Ignore case."),
			boolean("-n", "Line numbers (default true)."),
			integer("-A", "Context lines after a match.", 0),
			integer("-B", "Context lines before a match.", 0),
			integer("-C", "Context lines around a match.", 0),
			integer("context", "Same as -C.", 0),
			integer("head_limit", "Most entries (default 250; 0: all).", 0),
			integer("offset", "Entries to skip.", 0),
			boolean("multiline", "Let . match newlines."),
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
	if !tb.ws.Settings().Virtual {
		return rel
	}
	if rel == "." {
		return "/"
	}
	return "/" + rel
}

func fileFind() tool { return findTool("file_find", "Directory to search; default the root.") }

func fileGrep() tool { return grepTool("file_grep", "File or directory to search; default the root.") }

func rtcFind() tool { return findTool("find", "Directory to search; default /.") }

func rtcGrep() tool { return grepTool("grep", "File or directory to search; default /.") }
