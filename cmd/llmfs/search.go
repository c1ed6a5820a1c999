//go:build !js && !wasip1

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/termtext"
	"github.com/llmfs/llmfs/search"
)

var grepCmd = &command{
	name:   "grep",
	args:   "PATTERN [PATH] [-i] [-n] [-A N] [-B N] [-C N] [-g GLOB] [-t TYPE] [-l] [-c] [-U] [--head-limit N] [--offset N] [--json]",
	short:  "search file contents with a regular expression, printing what ripgrep prints",
	search: true,
	long: `PATTERN is a regular expression in Go's RE2 syntax. Output is ripgrep's: path:line:text for
matches (path:text without -n), path-line-text for context lines, -- between groups, path with
-l, path:count with -c; paths are relative to the workspace root. Hidden files, files ignored
by .gitignore or .ignore, and binary files are skipped unless --hidden or --no-ignore.
Every result is printed unless --head-limit is given. The exit status is 1 when nothing
matched and 2 on an error (a bad pattern, a missing path), as with grep and ripgrep.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		ignoreCase := fs.Bool("i", false, "ignore case")
		lineNumbers := fs.Bool("n", false, "show line numbers")
		after := fs.Int("A", 0, "show `N` lines after each match")
		before := fs.Int("B", 0, "show `N` lines before each match")
		around := fs.Int("C", 0, "show `N` lines before and after each match")
		glob := fs.String("g", "", "only files matching `GLOB` (a leading ! excludes)")
		typ := fs.String("t", "", "only files of `TYPE` (go, py, js, ...)")
		files := fs.Bool("l", false, "print only the paths of files with a match")
		count := fs.Bool("c", false, "print path:count, the matching lines per file")
		multiline := fs.Bool("U", false, "let patterns span lines ('.' matches newline)")
		headLimit := fs.Int("head-limit", 0, "print at most `N` entries (0: all)")
		offset := fs.Int("offset", 0, "skip the first `N` entries")
		hidden := fs.Bool("hidden", false, "search hidden files and directories too")
		noIgnore := fs.Bool("no-ignore", false, "do not honour .gitignore and .ignore files")
		asJSON := fs.Bool("json", false, "print the result as the grep tool's JSON")
		return func(ctx context.Context, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("want PATTERN and an optional PATH")
			}
			if *files && *count {
				return usagef("-l and -c exclude each other")
			}
			if *after < 0 || *before < 0 || *around < 0 || *headLimit < 0 || *offset < 0 {
				return usagef("-A, -B, -C, --head-limit and --offset take numbers of 0 or more")
			}
			opts := llmfs.GrepOptions{
				Pattern: args[0], Mode: llmfs.GrepContent, IgnoreCase: *ignoreCase, LineNumbers: *lineNumbers,
				Before: max(*before, *around), After: max(*after, *around), Glob: *glob, Type: *typ,
				HeadLimit: *headLimit, Offset: *offset, Multiline: *multiline, Hidden: *hidden, NoIgnore: *noIgnore,
			}
			if len(args) == 2 {
				opts.Path = args[1]
			}
			switch {
			case *files:
				opts.Mode = llmfs.GrepFiles
			case *count:
				opts.Mode = llmfs.GrepCount
			}
			searchGC(e.ws.storeDSN != "")
			e.ws.scan = true
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			if !*asJSON {
				return printGrep(ctx, e, ws, opts)
			}
			res, err := ws.Grep(ctx, opts)
			if err != nil {
				return err
			}
			out := map[string]any{"mode": res.Mode, "output": res.Text(), "count": len(res.Entries)}
			if res.Truncated {
				out["truncated"], out["next_offset"] = true, res.NextOffset
			}
			if res.Binary {
				out["binary"] = true
			}
			if res.Note != "" {
				out["note"] = res.Note
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false) // people and programs read it: a < b stays a < b
			if err := enc.Encode(out); err != nil {
				return err
			}
			if len(res.Entries) == 0 {
				return errNoMatch
			}
			return nil
		}
	},
}

// printGrep prints the entries of a grep as they come, in order, rather than once all are
// found: memory stays bounded however much matches (issue 18).
func printGrep(ctx context.Context, e *env, ws *llmfs.Workspace, opts llmfs.GrepOptions) error {
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	var werr error
	n := 0
	var line []byte
	res, err := ws.GrepFunc(ctx, opts, func(ent llmfs.GrepEntry) bool {
		line = search.AppendEntry(line[:0], ent, opts.LineNumbers && opts.Mode == llmfs.GrepContent)
		line = append(line, '\n')
		if _, werr = w.Write(line); werr != nil {
			return false
		}
		n++
		return true
	})
	if err == nil {
		err = werr
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if res.Binary {
		// A file named on the command line was not searched: say so, as ripgrep
		// does, rather than print nothing as if it held no match.
		fmt.Fprintf(e.stderr, "llmfs grep: %s\n", termtext.Text(res.Note))
	}
	if n == 0 {
		return errNoMatch
	}
	return nil
}

var findCmd = &command{
	name:   "find",
	args:   "PATTERN [PATH] [--head-limit N] [--hidden] [--no-ignore]",
	short:  "find files by glob pattern, newest-modified first",
	search: true,
	long: `PATTERN is a glob: * and ? within a name, ** across directories, {a,b}, [a-z]. A pattern
without / matches file names at any depth ("*.go"); one with / matches the path below PATH.
Paths are printed relative to the workspace root, newest-modified first. The exit status is 1
when nothing matched and 2 on an error (a bad glob, a missing path).`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		e.ws.register(fs)
		headLimit := fs.Int("head-limit", 0, "print at most `N` paths (0: all)")
		hidden := fs.Bool("hidden", false, "include hidden files and directories")
		noIgnore := fs.Bool("no-ignore", false, "do not honour .gitignore and .ignore files")
		return func(ctx context.Context, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("want PATTERN and an optional PATH")
			}
			if *headLimit < 0 {
				return usagef("--head-limit takes a number of 0 or more")
			}
			opts := llmfs.FindOptions{Limit: *headLimit, Hidden: *hidden, NoIgnore: *noIgnore}
			if len(args) == 2 {
				opts.Path = args[1]
			}
			searchGC(e.ws.storeDSN != "")
			e.ws.scan = true
			ws, err := e.ws.open()
			if err != nil {
				return err
			}
			res, err := ws.Find(ctx, args[0], opts)
			if err != nil {
				return err
			}
			// One name a line, whatever the names hold on a terminal (see env.name),
			// through a buffer: a write per line cost a system call each.
			w := bufio.NewWriterSize(e.stdout, 64<<10)
			for _, f := range res.Files {
				w.WriteString(e.name(f.Path))
				w.WriteByte('\n')
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if len(res.Files) == 0 {
				return errNoMatch
			}
			return nil
		}
	},
}
