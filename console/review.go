package console

import (
	"errors"
	"net/http"
	"slices"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/overlay"
)

// review serves the pending changes of a workspace served with --review: its store is the
// copy-on-write layer of package store/overlay, and these routes call its Go API.
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
		reply(w, map[string]any{"review": false, "changes": []overlay.Change{}})
		return
	}
	cs, err := rv.ov.Pending(r.Context())
	if err != nil {
		failErr(w, err)
		return
	}
	if cs == nil {
		cs = []overlay.Change{}
	}
	reply(w, map[string]any{"review": true, "changes": cs})
}

func (rv *review) diff(w http.ResponseWriter, r *http.Request) {
	if !rv.layer(w) {
		return
	}
	var names []string
	if p := r.URL.Query().Get("path"); p != "" {
		n, err := rv.ws.StoreName(p)
		if err != nil {
			failErr(w, err)
			return
		}
		names = append(names, n)
	}
	d, err := rv.ov.Diff(r.Context(), names...)
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
		n, err := rv.ws.StoreName(p)
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
	cs, err := rv.ov.Pending(r.Context())
	if err != nil {
		failErr(w, err)
		return
	}
	for _, n := range names {
		if !slices.ContainsFunc(cs, func(c overlay.Change) bool { return below(c.Path, n) || c.From == n }) {
			failErr(w, &llmfs.Error{Code: llmfs.CodeFileNotFound, Path: n, Msg: n + ": no pending change"})
			return
		}
	}
	var done []overlay.Resolution
	if apply {
		done, err = rv.ov.Apply(r.Context(), names, req.Hunks)
	} else {
		done, err = rv.ov.Discard(r.Context(), names, req.Hunks)
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
		done = []overlay.Resolution{}
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
