package console

import (
	"errors"
	"net/http"
	"slices"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/overlay"
)

// review serves the pending changes of a workspace served with --review: its store is the
// copy-on-write layer of package store/overlay, and these routes call the core's review
// ([llmfs.Workspace.Review]) as actor "web": versions, three-way applies, mode and deny
// rules.
type review struct {
	ws *llmfs.Workspace
	ov *overlay.Overlay // nil: the workspace is not under review
}

// overlayOf returns the review layer ws works on, or nil.
func overlayOf(ws *llmfs.Workspace) *overlay.Overlay {
	ov, _ := ws.Store().(*overlay.Overlay)
	return ov
}

// layer answers 400 and returns false when the workspace is not under review.
func (rv *review) layer(w http.ResponseWriter) bool {
	if rv.ov == nil {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "this workspace is not served with --review: nothing is pending")
		return false
	}
	return true
}

func (rv *review) pending(w http.ResponseWriter, r *http.Request) {
	if rv.ov == nil {
		// Not an error: the page asks whatever the mode, and shows nothing.
		reply(w, map[string]any{"review": false, "changes": []llmfs.PendingChange{}})
		return
	}
	cs, err := rv.ws.Review().List(r.Context())
	if err != nil {
		failErr(w, err)
		return
	}
	if cs == nil {
		cs = []llmfs.PendingChange{}
	}
	reply(w, map[string]any{"review": true, "changes": cs})
}

func (rv *review) diff(w http.ResponseWriter, r *http.Request) {
	if !rv.layer(w) {
		return
	}
	var paths []string
	if p := r.URL.Query().Get("path"); p != "" {
		paths = append(paths, p)
	}
	d, _, err := rv.ws.Review().Diff(r.Context(), paths...)
	if err != nil {
		failErr(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte(d))
}

// conflict is a pending change that could not be applied: its base file changed since
// the agent first read or wrote it.
type conflict struct {
	Code string `json:"code"` // FILE_CHANGED
	Path string `json:"path"`
	What string `json:"what"` // "modified", "deleted" or "created" on the base
	Diff string `json:"diff"` // both sides, marked, or the base now against the pending version
}

func (rv *review) apply(w http.ResponseWriter, r *http.Request)   { rv.resolve(w, r, true) }
func (rv *review) discard(w http.ResponseWriter, r *http.Request) { rv.resolve(w, r, false) }

// resolve applies or discards the pending changes at or below paths (hunks: only those
// hunks of each text file, numbered from 1 as the diff shows them). A conflict does not
// stop the others: the answer (200) lists what was done and what conflicted.
func (rv *review) resolve(w http.ResponseWriter, r *http.Request, apply bool) {
	var req struct {
		Paths []string `json:"paths"`
		Hunks []int    `json:"hunks"`
		// Version, with one path, is the version the page showed: a change that moved
		// since is refused with FILE_CHANGED (409), nothing touched.
		Version string `json:"version"`
	}
	if !decode(w, r, &req) || !rv.layer(w) {
		return
	}
	if len(req.Paths) == 0 {
		// Everything at once is one click too easy to make by mistake: the page names paths
		// ("." for all).
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "name the paths to resolve (\".\" for every pending change)")
		return
	}
	if slices.ContainsFunc(req.Hunks, func(n int) bool { return n < 1 }) {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "hunks are numbered from 1")
		return
	}
	var names []string
	for _, p := range req.Paths {
		n, err := rv.ws.Paths().StoreName(p)
		if err != nil {
			failErr(w, err)
			return
		}
		if n == "." {
			names = nil
			break
		}
		names = append(names, n)
	}
	if req.Version != "" && len(req.Paths) != 1 {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "version names the version of one path: give exactly one in paths")
		return
	}
	review := rv.ws.Review()
	cs, err := review.List(r.Context())
	if err != nil {
		failErr(w, err)
		return
	}
	for _, n := range names {
		if !slices.ContainsFunc(cs, func(c llmfs.PendingChange) bool { return below(c.Path, n) || c.From == n }) {
			failErr(w, &llmfs.Error{Code: llmfs.CodeFileNotFound, Path: n, Msg: n + ": no pending change"})
			return
		}
	}
	rreq := llmfs.ReviewRequest{Hunks: req.Hunks}
	if names != nil {
		rreq.Paths = req.Paths // the core resolves them, as StoreName did above
	}
	if req.Version != "" {
		rreq.Expect = map[string]string{req.Paths[0]: req.Version}
	}
	var done []llmfs.Resolved
	if apply {
		done, err = review.Apply(r.Context(), rreq)
	} else {
		done, err = review.Discard(r.Context(), rreq)
	}
	if _, joined := err.(interface{ Unwrap() []error }); err != nil && !joined && llmfs.CodeOf(err) != "" {
		failErr(w, err) // refused as a whole: a version that moved, the mode, a deny rule
		return
	}
	conflicts := []conflict{}
	var others []error
	for _, e := range unjoin(err) {
		var ce *overlay.ConflictError
		if errors.As(e, &ce) {
			conflicts = append(conflicts, conflict{Code: string(llmfs.CodeFileChanged), Path: ce.Path, What: ce.What, Diff: ce.Diff})
		} else {
			others = append(others, e)
		}
	}
	if len(others) > 0 {
		failErr(w, errors.Join(others...))
		return
	}
	if done == nil {
		done = []llmfs.Resolved{}
	}
	reply(w, map[string]any{"resolved": done, "conflicts": conflicts})
}

// below reports whether name is dir or below it.
func below(name, dir string) bool {
	return name == dir || len(name) > len(dir) && name[len(dir)] == '/' && name[:len(dir)] == dir
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
