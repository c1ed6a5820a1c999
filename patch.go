package llmfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/patch"
	"github.com/llmfs/llmfs/store"
)

// PatchOptions control [Workspace.Patch].
type PatchOptions struct {
	// Path is the file of SEARCH/REPLACE blocks and unified hunks that name none.
	Path string
}

// PatchResult is what [Workspace.Patch] returns.
type PatchResult struct {
	Format string        // v4a, unified or search-replace
	Files  []PatchedFile // in the order the patch first names them
	Diff   string        // a short unified diff of every change
}

// PatchedFile is the outcome of a patch for one file.
type PatchedFile struct {
	Path    string    `json:"path"`         // absolute
	Op      string    `json:"op"`           // add, update, delete, or rename (to To, changed as Hunks say)
	To      string    `json:"to,omitempty"` // where a rename took the file, absolute
	Hunks   int       `json:"hunks,omitempty"`
	Matched []Matched `json:"matched,omitempty"` // per hunk: exact, whitespace, indent, unicode, prefix
}

// Patch applies a patch in any format package patch reads (V4A, unified diff,
// SEARCH/REPLACE blocks, sniffed from the text) as one transaction: every file it names
// is read once and planned in memory first, and the plan is written only if every hunk of
// every file matched, each uniquely (see package patch for the matching rules). Writes are
// compare-and-swap against what was read; if one fails (another writer got in, a quota
// refused it), the files already written are put back as they were and the error is
// returned, so a patch changes all its files or none. The journal, when the store has one,
// records the patch as one change set (operation "patch").
//
// Adding a file that exists replaces it and moving onto an existing file replaces that,
// as in Codex. Each file needs the policy of what is done to it: write to add, edit to
// update, delete to delete or move away. With read tracking, a file changed or deleted
// must have been read in this session and be unchanged since.
//
// A patch that cannot be read is [CodeInvalidArgument] with the line; a hunk that does not
// match is [CodePatternNotFound] (with the nearest text of the file) or
// [CodePatternNotUnique], naming the file and the hunk; a missing file is
// [CodeFileNotFound].
func (w *Workspace) Patch(ctx context.Context, text string, opts PatchOptions) (*PatchResult, error) {
	if w.bad != nil {
		return nil, w.bad
	}
	p, err := patch.Parse(text, opts.Path)
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Msg: err.Error() + ". Nothing was changed.", Err: err}
	}
	files := map[string]*patchFile{} // by patch path
	names := map[string]string{}     // store name -> patch path, to catch one file named twice
	read := func(ctx context.Context, path string) (string, bool, error) {
		r, err := w.resolve(path)
		if err != nil {
			return "", false, err
		}
		if other, dup := names[r.name]; dup && other != path {
			return "", false, errorf(CodeInvalidArgument, path, "the patch names one file two ways (%s and %s); name it the same way throughout", other, path)
		}
		names[r.name] = path
		if err := w.check(ctx, OpRead, r); err != nil {
			return "", false, err
		}
		pf := &patchFile{r: r}
		files[path] = pf
		data, err := w.load(ctx, r)
		if CodeOf(err) == CodeFileNotFound {
			if _, serr := w.store.Stat(ctx, r.name); errors.Is(serr, fs.ErrNotExist) {
				return "", false, nil
			}
		}
		if err != nil {
			return "", false, err
		}
		pf.exists, pf.hash = true, store.Hash(data)
		if w.tracker != nil {
			pf.known, pf.knownErr = w.readFirst(r.name, path)
			if pf.knownErr == nil && !pf.known.holds(data) {
				pf.knownErr = changedError(path, nil)
			}
		}
		return string(data), true, nil
	}
	pl, err := p.Plan(ctx, read)
	if err != nil {
		return nil, patchError(err)
	}
	// Check the policy for what is done to each file before writing anything.
	res := &PatchResult{Format: p.Format.String(), Files: []PatchedFile{}} // [] when nothing changed: never null
	var diffs []string
	// A move is one entry, a rename, with the diff from what the file held to what its
	// destination holds, rather than the whole file deleted and added again.
	renamed := map[string]*patch.FilePlan{} // destination path -> the file moved there
	for _, fp := range pl.Files {
		if fp.MovedTo != "" && fp.Exists {
			renamed[fp.MovedTo] = fp
		}
	}
	for _, fp := range pl.Files {
		pf := files[fp.Path]
		pf.plan = fp
		op, kind := OpEdit, "update"
		switch {
		case fp.Delete && !fp.Exists:
			continue // added and removed again, or never there
		case fp.Delete && fp.MovedTo != "":
			op, kind = OpMove, "delete"
		case fp.Delete:
			op, kind = OpDelete, "delete"
		case !fp.Exists:
			op, kind = OpWrite, "add"
		case fp.After == fp.Before:
			continue
		}
		if err := w.check(ctx, op, pf.r); err != nil {
			return nil, err
		}
		if pf.exists && pf.knownErr != nil {
			return nil, pf.knownErr
		}
		pf.write = true
		pf.kind = kind
		abs := w.display(pf.r.name)
		matched := make([]Matched, len(fp.Steps))
		for i, s := range fp.Steps {
			matched[i] = Matched(s)
		}
		switch src := renamed[fp.Path]; {
		case kind == "delete" && fp.MovedTo != "":
			to := w.display(files[fp.MovedTo].r.name)
			res.Files = append(res.Files, PatchedFile{Path: abs, Op: "rename", To: to, Hunks: fp.Hunks, Matched: matched})
			after := pl.Files[slices.IndexFunc(pl.Files, func(d *patch.FilePlan) bool { return d.Path == fp.MovedTo })].After
			diffs = append(diffs, textdiff.Renamed(w.rel(abs), w.rel(to), fp.Before, after, 3, 60))
		case src != nil && fp.Hunks == 0 && !fp.Exists:
			// the destination of a rename, shown with it; a destination that held a file
			// is an update of its own, so the content it loses is shown
		default:
			res.Files = append(res.Files, PatchedFile{Path: abs, Op: kind, Hunks: fp.Hunks, Matched: matched})
			diffs = append(diffs, textdiff.Unified(w.rel(abs), fp.Before, fp.After, 3, 60))
		}
	}
	// One change set in the journal: every file of the patch, or (after a failure on a
	// SQL store) none.
	_, err = journaled(ctx, w, ChangePatch, func(v *Workspace) (struct{}, error) { return struct{}{}, v.commitPatch(ctx, pl, files) })
	if err != nil {
		return nil, err
	}
	res.Diff = strings.Join(diffs, "")
	return res, nil
}

// patchFile is what Patch knows of one file it touches.
type patchFile struct {
	r        resolved
	exists   bool
	hash     string // store hash of the content read, when it exists
	known    seen
	knownErr error // with read tracking: why the session may not change it
	plan     *patch.FilePlan
	write    bool   // the plan changes it
	kind     string // add, update, delete
}

// commitPatch writes the plan: the files to add or update in order, then the deletions,
// each compare-and-swap on what Patch read. On the first failure it undoes what it did,
// newest first, and returns that failure.
func (w *Workspace) commitPatch(ctx context.Context, pl *patch.Plan, files map[string]*patchFile) error {
	var done []*patchFile
	var made []string
	fail := func(err error) error {
		left := w.undoPatch(ctx, done)
		w.removeMade(ctx, made)
		return halfApplied(err, left)
	}
	for pass := 0; pass < 2; pass++ {
		for _, fp := range pl.Files {
			pf := files[fp.Path]
			if !pf.write || (pass == 0) == fp.Delete {
				continue
			}
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			if fp.Delete {
				if err := w.patchRemove(ctx, pf); err != nil {
					return fail(err)
				}
			} else {
				if err := w.mkdirAll(ctx, parentName(pf.r.name), &made); err != nil {
					return fail(storeError(pf.r.arg, err))
				}
				opts := store.WriteOptions{IfMatch: pf.hash, IfAbsent: !pf.exists}
				if err := w.patchWrite(ctx, pf.r, fp.After, opts); err != nil {
					return fail(err)
				}
			}
			done = append(done, pf)
		}
	}
	if w.tracker != nil {
		for _, pf := range done {
			if pf.plan.Delete {
				w.tracker.forget(pf.r.name)
			} else {
				w.tracker.record(pf.r.name, seenOf([]byte(pf.plan.After)))
			}
		}
	}
	return nil
}

// patchWrite writes content to r under the quota, as a compare-and-swap by opts.
func (w *Workspace) patchWrite(ctx context.Context, r resolved, content string, opts store.WriteOptions) error {
	admitted, err := w.admitFile(ctx, r, func(int64) int64 { return int64(len(content)) })
	if err != nil {
		return err
	}
	_, err = w.store.WriteFile(ctx, r.name, strings.NewReader(content), opts)
	admitted(err)
	if errors.Is(err, store.ErrChanged) {
		return changedError(r.arg, err)
	}
	return storeError(r.arg, err)
}

// patchRemove deletes the file of pf if it still holds what Patch read, in one step
// ([store.RemoveIf]).
func (w *Workspace) patchRemove(ctx context.Context, pf *patchFile) error {
	removed := w.removing(pf.r.name)
	err := store.RemoveIf(ctx, w.store, pf.r.name, pf.hash)
	removed(int64(len(pf.plan.Before)), err)
	if errors.Is(err, store.ErrChanged) {
		return changedError(pf.r.arg, err)
	}
	return storeError(pf.r.arg, err)
}

// undoPatch puts back the files a failed patch already changed, newest first: each only if
// it still holds what the patch left there, so nobody else's later write is lost. It
// returns the files it could not put back, each with why.
func (w *Workspace) undoPatch(ctx context.Context, done []*patchFile) []notUndone {
	ctx = context.WithoutCancel(ctx)
	var left []notUndone
	for i := len(done) - 1; i >= 0; i-- {
		pf := done[i]
		var err error
		switch {
		case pf.plan.Delete:
			err = w.patchWrite(ctx, pf.r, pf.plan.Before, store.WriteOptions{IfAbsent: true})
		case !pf.exists:
			removed := w.removing(pf.r.name)
			err = store.RemoveIf(ctx, w.store, pf.r.name, store.Hash([]byte(pf.plan.After)))
			removed(int64(len(pf.plan.After)), err)
		default:
			err = w.patchWrite(ctx, pf.r, pf.plan.Before, store.WriteOptions{IfMatch: store.Hash([]byte(pf.plan.After))})
		}
		if err != nil {
			left = append(left, notUndone{path: w.display(pf.r.name), kind: pf.kind, err: err})
		}
	}
	return left
}

// notUndone is a file of a failed patch that keeps the patch's change.
type notUndone struct {
	path, kind string // kind: add, update, delete
	err        error
}

// halfApplied is the error of a patch that failed with err and could not put back the
// files left: the patch is then not all or nothing, and the error says so and names them,
// under err's code (the cause of the failure), wrapping err and every rollback error.
func halfApplied(err error, left []notUndone) error {
	if len(left) == 0 {
		return err
	}
	code, cause := CodeIO, err.Error()
	var e *Error
	if errors.As(err, &e) {
		code = e.Code
		if e.Msg != "" {
			cause = e.Msg
		}
	}
	errs := []error{err}
	var sb strings.Builder
	for i, l := range left {
		if i > 0 {
			sb.WriteString("; ")
		}
		fmt.Fprintf(&sb, "%s (its %s stays: %v)", l.path, l.kind, l.err)
		errs = append(errs, l.err)
	}
	return &Error{Code: code, Path: left[0].path, Err: errors.Join(errs...),
		Msg: fmt.Sprintf("%s. The patch failed and is NOT undone completely: %d file(s) keep its changes: %s. Look at them and put them right before going on.", strings.TrimSuffix(cause, "."), len(left), sb.String())}
}

// patchError gives the errors of package patch their codes.
func patchError(err error) error {
	var (
		me *patch.MatchError
		nf *patch.NotFoundError
	)
	switch {
	case errors.As(err, &me):
		code := CodePatternNotFound
		if me.Ambiguous {
			code = CodePatternNotUnique
		}
		return &Error{Code: code, Path: me.Path, Msg: me.Msg, Err: err}
	case errors.As(err, &nf):
		return &Error{Code: CodeFileNotFound, Path: nf.Path, Err: err,
			Msg: fmt.Sprintf("line %d of the patch changes %s, which does not exist (to create a file, add it). Nothing was changed.", nf.Line, nf.Path)}
	}
	return err
}
