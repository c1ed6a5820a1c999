package llmfs

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/llmfs/llmfs/search"
)

// FindOptions configure [Workspace.Find].
type FindOptions struct {
	// Path is the directory to search; empty means the workspace root.
	Path string
	// Limit caps the files returned; 0 means no cap. Tool faces pass their own default.
	Limit int
	// Hidden includes names starting with "." (and the .git directory).
	Hidden bool
	// NoIgnore stops honouring .gitignore and .ignore files.
	NoIgnore bool
}

// FoundFile is one file [Workspace.Find] found.
type FoundFile struct {
	Path    string    `json:"path"` // relative to the workspace root (absolute if outside it)
	ModTime time.Time `json:"-"`
}

// FindResult is the result of [Workspace.Find]: files newest-modified first, ties broken
// by path.
type FindResult struct {
	Files []FoundFile `json:"files"`
	// Truncated says that more files matched than the limit let through.
	Truncated bool `json:"truncated,omitempty"`
}

// Text renders the result one path per line, each ending in a newline.
func (r *FindResult) Text() string {
	var b strings.Builder
	for _, f := range r.Files {
		b.WriteString(f.Path)
		b.WriteByte('\n')
	}
	return b.String()
}

// Find returns the regular files below opts.Path whose names match the glob pattern:
// "*", "?", "[a-z]", "{a,b}", and "**" for any number of directories. A pattern without
// "/" matches base names at any depth ("*.go"); one with "/" matches the path relative to
// the directory searched ("cmd/**/main.go"). Hidden and ignored files are left out unless
// opts say otherwise; symbolic links are not followed.
//
// A bad pattern, or one with a ".." element (it would reach beside the directory
// searched), is [CodeInvalidArgument]; a path that is not a directory is
// [CodeInvalidPath], a missing one [CodeFileNotFound].
func (w *Workspace) Find(ctx context.Context, pattern string, opts FindOptions) (*FindResult, error) {
	p := opts.Path
	if p == "" {
		p = "."
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpFind, r); err != nil {
		return nil, err
	}
	res, err := search.Find(ctx, w.store, r.name, search.FindOptions{
		Pattern: pattern, Limit: opts.Limit, Hidden: opts.Hidden, NoIgnore: opts.NoIgnore, Base: w.base, Skip: w.skipDenied(),
	})
	if err != nil {
		return nil, w.searchError(p, err)
	}
	out := &FindResult{Files: make([]FoundFile, len(res.Files)), Truncated: res.Truncated}
	for i, f := range res.Files {
		out.Files[i] = FoundFile{Path: w.relName(f.Path), ModTime: f.ModTime}
	}
	return out, nil
}

// searchError maps an error of the search engine onto a coded error.
func (w *Workspace) searchError(p string, err error) error {
	var pe *search.PatternError
	if errors.As(err, &pe) {
		return &Error{Code: CodeInvalidArgument, Path: p, Msg: pe.Error(), Err: err}
	}
	return storeError(p, err)
}
