package tools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/editmatch"
	sj "github.com/llmfs/llmfs/internal/strictjson"
	"github.com/llmfs/llmfs/internal/textdiff"
)

// geminiTools is the gemini dialect: the file tools of Google's Gemini CLI. Paths are host
// paths, absolute or relative to the workspace root. Where Gemini CLI renamed a parameter
// over time, both names are accepted (absolute_path or file_path; path or dir_path; paths
// or include), and replace takes the older expected_replacements as well as allow_multiple.
func geminiTools() []tool {
	return []tool{geminiReadFile(), geminiWriteFile(), geminiReplace(), geminiListDirectory(), geminiGlob(), geminiGrep(), geminiReadMany(),
		patchTool("File for SEARCH/REPLACE blocks or hunks that name none."), geminiSearchOld()}
}

const geminiPathDesc = "Absolute, or relative to the workspace root."

// either returns the value of whichever of two names for one parameter was given.
func either(a sj.Object, name, alias string, required bool) (string, error) {
	switch {
	case a.Has(name) && a.Has(alias):
		return "", invalid("%s and %s are the same parameter; give one", name, alias)
	case a.Has(alias):
		return a.String(alias, ""), nil
	case !a.Has(name) && required:
		return "", invalid("missing required parameter %q", name)
	}
	return a.String(name, ""), nil
}

func geminiReadFile() tool {
	return tool{
		name: "read_file", output: geminiReadOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read a text file. Large files are truncated, with a note on which lines to read next: start_line and end_line " +
			"(1-based, inclusive), or offset (0-based) and limit. Images come back as images.",
		params: []param{
			str("file_path", geminiPathDesc, false),
			str("absolute_path", "Same as file_path (older name).", false),
			integer("start_line", "First line to read, from 1.", 1),
			integer("end_line", "Last line to read, inclusive.", 1),
			integer("offset", "Line to start at, counting from 0 (older form of start_line).", 0),
			integer("limit", "Number of lines to read (with offset).", 1),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p, err := either(a, "file_path", "absolute_path", true)
			if err != nil {
				return nil, err
			}
			opts := llmfs.ReadOptions{}
			switch {
			case (a.Has("start_line") || a.Has("end_line")) && (a.Has("offset") || a.Has("limit")):
				return nil, invalid("give start_line/end_line or offset/limit, not both")
			case a.Has("start_line") || a.Has("end_line"):
				opts.Offset = int(a.Int("start_line", 1))
				if a.Has("end_line") {
					end := int(a.Int("end_line", 0))
					if end < opts.Offset {
						return nil, invalid("end_line %d is before start_line %d", end, opts.Offset)
					}
					opts.Limit = end - opts.Offset + 1
				}
			default:
				opts.Offset = int(a.Int("offset", 0)) + 1
				opts.Limit = int(a.Int("limit", 0))
			}
			img, res, err := tb.readAny(ctx, p, opts)
			if img != nil || err != nil {
				return img, err
			}
			out := map[string]any{"content": res.Content, "total_lines": res.TotalLines}
			if last := res.Offset + res.Lines - 1; res.Lines > 0 && last < res.TotalLines {
				out["note"] = fmt.Sprintf("showing lines %d-%d of %d; read on with start_line=%d", res.Offset, last, res.TotalLines, last+1)
			}
			addReadNotes(out, res)
			return out, nil
		},
	}
}

func geminiWriteFile() tool {
	return tool{
		name: "write_file", output: geminiWriteOut(), op: llmfs.OpWrite, destructive: true,
		description: "Write content to a file, replacing what it held; the file and its parent directories are created if missing. " +
			"Give the complete content: no placeholders for parts left out.",
		params: []param{str("file_path", geminiPathDesc, true), str("content", "The complete content to write.", true)},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			if err := tb.checkWriteText(ctx, a.String("file_path", ""), a.String("content", ""), "content"); err != nil {
				return nil, err
			}
			res, err := tb.ws.Write(ctx, a.String("file_path", ""), a.String("content", ""), llmfs.WriteOptions{})
			if err != nil {
				return nil, err
			}
			return map[string]any{"path": res.Path, "bytes": res.Bytes, "created": res.Created}, nil
		},
	}
}

func geminiReplace() tool {
	return tool{
		name: "replace", output: geminiEditOut(), op: llmfs.OpEdit, destructive: true,
		description: "Replace literal text in a file. old_string, with about three lines of context, must occur exactly once unless " +
			"allow_multiple (or expected_replacements, the count you expect). An empty old_string creates a new file. Small whitespace, " +
			"indentation and quote differences are forgiven (see matched).",
		params: []param{
			str("file_path", geminiPathDesc, true),
			str("instruction", "What the change is and why, in a sentence.", false),
			str("old_string", "The exact literal text to replace.", true),
			str("new_string", "The exact literal text to put in its place.", true),
			boolean("allow_multiple", "Replace every occurrence of old_string."),
			integer("expected_replacements", "How many occurrences to replace (older form of allow_multiple); the edit fails if the count differs.", 1),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p := a.String("file_path", "")
			if a.String("old_string", "") == "" {
				return geminiCreate(ctx, tb, p, a.String("new_string", ""))
			}
			want := int(a.Int("expected_replacements", 0))
			all := a.Bool("allow_multiple", false) || want > 1
			if err := checkEditText(p, a.String("old_string", ""), a.String("new_string", ""), "new_string"); err != nil {
				return nil, err
			}
			// The expected count is checked before the file is written (Replacement.Count),
			// so a wrong count leaves neither the file nor the journal touched.
			res, err := tb.ws.EditMany(ctx, p, []llmfs.Replacement{{Old: a.String("old_string", ""), New: a.String("new_string", ""), ReplaceAll: all, Count: want}})
			if llmfs.CodeOf(err) == llmfs.CodePatternNotFound && !errors.Is(err, editmatch.ErrIndentation) {
				if flex, ok, ferr := geminiFlexEdit(ctx, tb, p, a.String("old_string", ""), a.String("new_string", ""), all, want); ok {
					res, err = flex, ferr
				}
			}
			if err != nil {
				err = reword(err, llmfs.CodePatternNotUnique, func(msg string) string {
					return strings.Replace(msg, "but the old text occurs", "but old_string occurs", 1)
				})
				return nil, notUniqueAs(err, "allow_multiple")
			}
			return editResultAll(res), nil
		},
	}
}

// geminiCreate is replace with an empty old_string: as in gemini-cli, it creates the file
// and refuses one that exists.
func geminiCreate(ctx context.Context, tb *Toolbox, p, content string) (any, error) {
	res, err := tb.ws.Write(ctx, p, content, llmfs.WriteOptions{Mode: llmfs.Create})
	if err != nil {
		return nil, existsAs(err, p, "give the text to replace as old_string, or use write_file")
	}
	return map[string]any{"path": res.Path, "replacements": 1, "matched": llmfs.MatchExact,
		"diff": textdiff.Unified(tb.ws.Paths().Rel(res.Path), "", content, 3, 60)}, nil
}

func geminiListDirectory() tool {
	return tool{
		name: "list_directory", output: listOut(), op: llmfs.OpList, readOnly: true, idempotent: true,
		description: "List the files and subdirectories directly in a directory, sorted by name, each with its type and size. ignore " +
			"leaves out entries whose names match any of the given globs.",
		params: []param{
			str("dir_path", "Directory to list: absolute, or relative to the workspace root.", false),
			str("path", "Same as dir_path (older name).", false),
			{Param: sj.Param{Name: "ignore", Kind: sj.Strings}, description: "Glob patterns of names to leave out."},
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			p, err := either(a, "dir_path", "path", true)
			if err != nil {
				return nil, err
			}
			entries, err := tb.ws.List(ctx, p)
			if err != nil {
				return nil, err
			}
			ignore := a.StringList("ignore")
			kept := []llmfs.Entry{}
			for _, e := range entries {
				if !matchesAny(ignore, e.Name) {
					kept = append(kept, e)
				}
			}
			return map[string]any{"entries": kept}, nil
		},
	}
}

// maxManyFiles bounds the files read_many_files reads, and maxManyImageBytes the bytes of
// the images among them (each also within [llmfs.DefaultMaxImageBytes]).
const (
	maxManyFiles      = 100
	maxManyImageBytes = 2 * llmfs.DefaultMaxImageBytes
)

func geminiReadMany() tool {
	return tool{
		name: "read_many_files", output: readManyOut(), op: llmfs.OpRead, readOnly: true, idempotent: true,
		description: "Read several text files, named by paths or globs (src/**/*.go), each as '--- path ---' then its content; images " +
			"come as images. At most 100 files.",
		params: []param{
			{Param: sj.Param{Name: "include", Kind: sj.Strings}, description: "Paths or glob patterns of the files to read."},
			{Param: sj.Param{Name: "paths", Kind: sj.Strings}, description: "Same as include (older name)."},
			{Param: sj.Param{Name: "exclude", Kind: sj.Strings}, description: "Glob patterns of files to leave out."},
			boolean("recursive", "Accepted for compatibility: patterns with ** always search below."),
			hide(boolean("useDefaultExcludes", "Leave out node_modules, .git, dist, build and the like (default true).")),
		},
		run: func(ctx context.Context, tb *Toolbox, a sj.Object) (any, error) {
			pats := a.StringList("include")
			if a.Has("paths") {
				if a.Has("include") {
					return nil, invalid("include and paths are the same parameter; give one")
				}
				pats = a.StringList("paths")
			}
			if len(pats) == 0 {
				return nil, invalid("give the files to read in include")
			}
			exclude := a.StringList("exclude")
			var sb strings.Builder
			seen := map[string]bool{}
			var files []string
			skipped := 0
			var images []*llmfs.Image
			imageBytes := 0
			for _, pat := range pats {
				names, err := tb.manyNames(ctx, pat, a.Bool("useDefaultExcludes", true))
				if err != nil {
					return nil, err
				}
				for _, n := range names {
					if seen[n] || matchesAny(exclude, n) {
						continue
					}
					seen[n] = true
					if len(files) == maxManyFiles {
						skipped++
						continue
					}
					res, img, err := tb.ws.ReadTextOrImage(ctx, n, llmfs.ReadOptions{}, 0)
					switch {
					case img != nil && imageBytes+len(img.Data) > maxManyImageBytes:
						fmt.Fprintf(&sb, "--- %s ---\n(a %s image of %d bytes, left out: the images of one call may total %d bytes; read it on its own)\n\n",
							n, img.MIMEType, len(img.Data), maxManyImageBytes)
						continue
					case img != nil:
						imageBytes += len(img.Data)
						files = append(files, n)
						images = append(images, img)
						fmt.Fprintf(&sb, "--- %s ---\n%s\n\n", n, imageNote(img))
						continue
					case err != nil: // an image over the cap among them
						fmt.Fprintf(&sb, "--- %s ---\n(%s)\n\n", n, ErrorOf(err).Message)
						continue
					}
					files = append(files, n)
					fmt.Fprintf(&sb, "--- %s ---\n%s\n", n, res.Content)
				}
			}
			out := map[string]any{"content": sb.String(), "files": files}
			if skipped > 0 {
				out["skipped"] = skipped
			}
			if len(images) == 0 {
				return out, nil
			}
			lean := maps.Clone(out)
			full, thin := make([]any, len(images)), make([]any, len(images))
			for i, img := range images {
				full[i], thin[i] = imageObject(img, true), imageObject(img, false)
			}
			out["images"], lean["images"] = full, thin
			return imageResult{obj: out, lean: lean, images: images}, nil
		},
	}
}

// matchesAny reports whether name (or its last element) matches one of the globs.
func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		base := name[strings.LastIndexByte(name, '/')+1:]
		if ok, _ := pathMatch(g, name); ok {
			return true
		}
		if ok, _ := pathMatch(g, base); ok {
			return true
		}
	}
	return false
}

func pathMatch(glob, name string) (bool, error) { return doublestar.Match(glob, name) }
