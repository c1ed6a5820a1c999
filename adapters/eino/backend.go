// Package eino gives llmfs to CloudWeGo Eino: a filesystem.Backend over a Workspace for
// the ADK filesystem middleware and deep agents (NewBackend), and the tools of any
// tools.Toolbox dialect as tool.InvokableTool (Tools).
//
// Everything goes through the workspace: its sandbox, policy, journal and store, so an
// Eino agent's files can live in memory, in SQLite or PostgreSQL, or in a reviewable
// overlay over a host directory.
package eino

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/cloudwego/eino/adk/filesystem"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/search"
)

// DefaultReadLimit is how many lines Read returns when the request sets no limit, as
// Eino's in-memory backend does.
const DefaultReadLimit = 200

// Backend is a filesystem.Backend over a workspace, with virtual paths: "/" is the
// workspace root. Failures are *llmfs.Error values (errors.As), their codes intact.
type Backend struct {
	ws *llmfs.Workspace
}

var _ filesystem.Backend = (*Backend)(nil)

// NewBackend returns a backend over ws's files, with "/" its root (ws.With(llmfs.VirtualPaths())).
func NewBackend(ws *llmfs.Workspace) *Backend { return &Backend{ws: ws.With(llmfs.VirtualPaths())} }

// Workspace returns the workspace the backend works on.
func (b *Backend) Workspace() *llmfs.Workspace { return b.ws }

// LsInfo lists a directory ("" is the root): each entry's absolute path, a directory's
// with a trailing slash.
func (b *Backend) LsInfo(ctx context.Context, req *filesystem.LsInfoRequest) ([]filesystem.FileInfo, error) {
	dir := abs(req.Path)
	entries, err := b.ws.ListNames(ctx, dir)
	if err != nil {
		return nil, err
	}
	out := make([]filesystem.FileInfo, 0, len(entries))
	for _, e := range entries {
		p := path.Join(dir, e.Name)
		if e.Type == llmfs.TypeDirectory {
			p += "/"
		}
		out = append(out, filesystem.FileInfo{Path: p})
	}
	return out, nil
}

// Read returns lines of a file numbered as cat -n does (six-wide number, a tab, the
// line), from the 0-based Offset, at most Limit lines (DefaultReadLimit when not
// positive). A read past the end returns "".
func (b *Backend) Read(ctx context.Context, req *filesystem.ReadRequest) (string, error) {
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultReadLimit
	}
	res, err := b.ws.Read(ctx, abs(req.FilePath), llmfs.ReadOptions{Offset: max(req.Offset, 0) + 1, Limit: limit})
	if err != nil {
		return "", err
	}
	if res.Content == "" {
		return "", nil
	}
	lines := strings.SplitAfter(res.Content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "%6d\t%s", res.Offset+i, strings.TrimRight(l, "\r\n"))
	}
	return sb.String(), nil
}

// GrepRaw finds the lines holding Pattern, a literal string, in the files below Path
// (default the root) whose path matches Glob.
func (b *Backend) GrepRaw(ctx context.Context, req *filesystem.GrepRequest) ([]filesystem.GrepMatch, error) {
	res, err := b.ws.Grep(ctx, llmfs.GrepOptions{
		Pattern: regexp.QuoteMeta(req.Pattern), Path: abs(req.Path), Glob: req.Glob,
		Mode: llmfs.GrepContent, LineNumbers: true,
	})
	if err != nil {
		return nil, err
	}
	var out []filesystem.GrepMatch
	for _, e := range res.Entries {
		if e.Kind != search.KindMatch {
			continue
		}
		out = append(out, filesystem.GrepMatch{Path: abs(e.Path), Line: e.Line, Content: e.Text})
	}
	return out, nil
}

// GlobInfo returns the files below Path (default the root) that match Pattern, newest
// first.
func (b *Backend) GlobInfo(ctx context.Context, req *filesystem.GlobInfoRequest) ([]filesystem.FileInfo, error) {
	res, err := b.ws.Find(ctx, req.Pattern, llmfs.FindOptions{Path: abs(req.Path)})
	if err != nil {
		return nil, err
	}
	out := make([]filesystem.FileInfo, 0, len(res.Files))
	for _, f := range res.Files {
		out = append(out, filesystem.FileInfo{Path: abs(f.Path)})
	}
	return out, nil
}

// Write creates a file, and its parents; an existing file is FILE_ALREADY_EXISTS, as
// the Backend contract says.
func (b *Backend) Write(ctx context.Context, req *filesystem.WriteRequest) error {
	_, err := b.ws.Write(ctx, abs(req.FilePath), req.Content, llmfs.WriteOptions{Mode: llmfs.Create})
	return err
}

// Edit replaces OldString, which must occur once unless ReplaceAll, with NewString;
// small differences in whitespace and quotes are forgiven, as in every llmfs edit.
func (b *Backend) Edit(ctx context.Context, req *filesystem.EditRequest) error {
	_, err := b.ws.Edit(ctx, abs(req.FilePath), req.OldString, req.NewString, req.ReplaceAll)
	return err
}

// abs makes a path absolute from the root: Eino's paths start with "/", and the
// workspace's search results are relative to it.
func abs(p string) string {
	if p == "" {
		return "/"
	}
	if !strings.HasPrefix(p, "/") {
		return "/" + p
	}
	return p
}
