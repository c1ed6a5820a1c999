// Package history serves a workspace's history over HTTP, as JSON, for the web console and
// any other front end: the changes (with a live feed), their diffs, undo, checkpoints and
// restore. It calls only the Workspace API. Mount [Handler] under a prefix with
// [http.StripPrefix]; authentication and CSRF protection are the mounting server's.
//
// Endpoints (paths are relative to the workspace root in every answer):
//
//	GET  /changes?path=P&actor=A&since=T&after=N&set=S&limit=L   changes, newest first
//	GET  /changes/{id}                                            one change
//	GET  /changes/{id}/diff[?set=1]                               its unified diff (text/plain)
//	GET  /events[?after=N]                                        Server-Sent Events feed
//	POST /undo         {"ids": [N, ...], "set": false}            {"paths": [...]}
//	GET  /checkpoints                                             [{"name", "id", "time"}]
//	POST /checkpoints  {"name": "NAME"}                           the checkpoint
//	GET  /checkpoints/{name}/diff                                 diff of everything since
//	POST /restore      {"name": "NAME"}                           {"paths": [...]}
//
// A change is {"id", "set", "time", "actor", "op", "path", "other"?, "before", "after",
// "state", "added", "removed"}, where before and after are {"kind": "absent"|"file"|"dir",
// "hash"?, "size"?}. The feed sends each change as one event whose id is the change's ID and
// whose data is the change as JSON on one line; a client reconnecting with Last-Event-ID (or
// ?after=N) gets every change after it, so none is missed. since is RFC 3339. Errors are
// {"code", "message"} with status 400 (INVALID_ARGUMENT: a bad request, or no such change
// or checkpoint), 403 (PERMISSION_DENIED), 404 (FILE_NOT_FOUND) or 409 (FILE_CHANGED: the
// undo or restore was refused and nothing was touched; the message holds the diff).
package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/llmfs/llmfs"
)

// Handler serves ws's history. Changes made through it are journaled with ws's actor:
// give it a workspace from [llmfs.Actor] (the console's is "web").
func Handler(ws *llmfs.Workspace) http.Handler {
	h := &handler{ws: ws}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /changes", h.changes)
	mux.HandleFunc("GET /changes/{id}", h.change)
	mux.HandleFunc("GET /changes/{id}/diff", h.diff)
	mux.HandleFunc("GET /events", h.events)
	mux.HandleFunc("POST /undo", h.undo)
	mux.HandleFunc("GET /checkpoints", h.checkpoints)
	mux.HandleFunc("POST /checkpoints", h.checkpoint)
	mux.HandleFunc("GET /checkpoints/{name}/diff", h.diffSince)
	mux.HandleFunc("POST /restore", h.restore)
	return mux
}

type handler struct{ ws *llmfs.Workspace }

// Change is a change as the API shows it.
type Change struct {
	llmfs.Change
	Path    string `json:"path"`
	Other   string `json:"other,omitempty"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
}

func (h *handler) view(r *http.Request, c llmfs.Change) Change {
	v := Change{Change: c, Path: h.ws.Paths().Rel(c.Path)}
	if c.Other != "" {
		v.Other = h.ws.Paths().Rel(c.Other)
	}
	v.Added, v.Removed = h.ws.History().Lines(r.Context(), c)
	return v
}

func (h *handler) changes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := llmfs.HistoryFilter{Path: q.Get("path"), Actor: q.Get("actor")}
	var err error
	if f.After, err = intParam(q.Get("after")); err == nil {
		if f.Set, err = intParam(q.Get("set")); err == nil {
			var limit int64
			limit, err = intParam(q.Get("limit"))
			f.Limit = int(limit)
		}
	}
	if err == nil && q.Get("since") != "" {
		f.Since, err = time.Parse(time.RFC3339Nano, q.Get("since"))
	}
	if err != nil {
		WriteError(w, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: err.Error()})
		return
	}
	cs, err := h.ws.History().List(r.Context(), f)
	if err != nil {
		WriteError(w, err)
		return
	}
	out := make([]Change, 0, len(cs))
	for _, c := range cs {
		out = append(out, h.view(r, c))
	}
	reply(w, out)
}

func intParam(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a number of 0 or more, got %q", s)
	}
	return n, nil
}

func (h *handler) byID(w http.ResponseWriter, r *http.Request) (llmfs.Change, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		WriteError(w, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "not a change id: " + r.PathValue("id")})
		return llmfs.Change{}, false
	}
	c, err := h.ws.History().ChangeByID(r.Context(), id)
	if err != nil {
		WriteError(w, err)
		return llmfs.Change{}, false
	}
	return c, true
}

func (h *handler) change(w http.ResponseWriter, r *http.Request) {
	if c, ok := h.byID(w, r); ok {
		reply(w, h.view(r, c))
	}
}

func (h *handler) diff(w http.ResponseWriter, r *http.Request) {
	c, ok := h.byID(w, r)
	if !ok {
		return
	}
	var d string
	var err error
	if r.URL.Query().Get("set") != "" {
		d, err = h.ws.History().DiffSet(r.Context(), c.ID)
	} else {
		d, err = h.ws.History().Diff(r.Context(), []llmfs.Change{c})
	}
	if err != nil {
		WriteError(w, err)
		return
	}
	text(w, d)
}

func (h *handler) diffSince(w http.ResponseWriter, r *http.Request) {
	d, err := h.ws.History().DiffSince(r.Context(), r.PathValue("name"))
	if err != nil {
		WriteError(w, err)
		return
	}
	text(w, d)
}

// events is the feed: the changes after the client's last one, then each new one as it
// is recorded (by any process), until the client goes.
func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	after, err := intParam(r.Header.Get("Last-Event-ID"))
	if err == nil && after == 0 {
		after, err = intParam(r.URL.Query().Get("after"))
	}
	if err != nil {
		WriteError(w, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: err.Error()})
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		WriteError(w, errors.New("streaming unsupported"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	ctx := r.Context()
	for {
		cs, err := h.ws.History().List(ctx, llmfs.HistoryFilter{After: after})
		if err != nil {
			return
		}
		for i := len(cs) - 1; i >= 0; i-- {
			b, _ := json.Marshal(h.view(r, cs[i]))
			fmt.Fprintf(w, "id: %d\ndata: %s\n\n", cs[i].ID, b)
			after = max(after, cs[i].ID)
		}
		flusher.Flush()
		if err := h.ws.History().WaitChange(ctx, after); err != nil {
			return
		}
	}
}

func (h *handler) undo(w http.ResponseWriter, r *http.Request) {
	var req struct {
		IDs []int64 `json:"ids"`
		Set bool    `json:"set"`
	}
	if !decode(w, r, &req) {
		return
	}
	ids := req.IDs
	if req.Set {
		ids = nil
		for _, id := range req.IDs {
			c, err := h.ws.History().ChangeByID(r.Context(), id)
			if err != nil {
				WriteError(w, err)
				return
			}
			cs, err := h.ws.History().List(r.Context(), llmfs.HistoryFilter{Set: c.Set})
			if err != nil {
				WriteError(w, err)
				return
			}
			for _, c := range cs {
				ids = append(ids, c.ID)
			}
		}
	}
	res, err := h.ws.History().Undo(r.Context(), ids...)
	if err != nil {
		WriteError(w, err)
		return
	}
	h.paths(w, res)
}

func (h *handler) paths(w http.ResponseWriter, res *llmfs.UndoResult) {
	out := struct {
		Paths []string `json:"paths"`
	}{Paths: []string{}}
	for _, p := range res.Paths {
		out.Paths = append(out.Paths, h.ws.Paths().Rel(p))
	}
	reply(w, out)
}

func (h *handler) checkpoints(w http.ResponseWriter, r *http.Request) {
	cps, err := h.ws.History().Checkpoints(r.Context())
	if err != nil {
		WriteError(w, err)
		return
	}
	if cps == nil {
		reply(w, []struct{}{})
		return
	}
	reply(w, cps)
}

func (h *handler) checkpoint(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if !decode(w, r, &req) {
		return
	}
	cp, err := h.ws.History().Checkpoint(r.Context(), req.Name)
	if err != nil {
		WriteError(w, err)
		return
	}
	reply(w, cp)
}

func (h *handler) restore(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if !decode(w, r, &req) {
		return
	}
	res, err := h.ws.History().Restore(r.Context(), req.Name)
	if err != nil {
		WriteError(w, err)
		return
	}
	h.paths(w, res)
}

// decode reads a small JSON request body strictly.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		WriteError(w, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "bad request body: " + err.Error()})
		return false
	}
	return true
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func text(w http.ResponseWriter, s string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, s)
}

// WriteError answers with err's code and message as JSON ({code, message}) and the HTTP
// status that fits the code (400, 403, 404, 409, else 500): the one error form of the
// console's API, whichever package serves the route.
func WriteError(w http.ResponseWriter, err error) {
	code := llmfs.CodeOf(err)
	status := StatusOf(code)
	msg := err.Error()
	var e *llmfs.Error
	if errors.As(err, &e) && e.Msg != "" {
		msg = e.Msg
	}
	if code == "" {
		code = llmfs.CodeIO
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"code": string(code), "message": msg})
}

// StatusOf is the HTTP status of an llmfs error code. Every code that says what is wrong with
// the request or with the file it names is a 4xx; only an I/O failure (or an error with no
// code) is a 500, so a client can tell its own mistake from the server's.
func StatusOf(code llmfs.Code) int {
	switch code {
	case llmfs.CodeInvalidArgument, llmfs.CodeInvalidPath, llmfs.CodeFileTooLarge, llmfs.CodeBinaryFile,
		llmfs.CodePatternNotFound, llmfs.CodePatternNotUnique:
		return http.StatusBadRequest
	case llmfs.CodePermissionDenied:
		return http.StatusForbidden
	case llmfs.CodeFileNotFound:
		return http.StatusNotFound
	case llmfs.CodeFileChanged, llmfs.CodeFileAlreadyExists, llmfs.CodeDirectoryNotEmpty, llmfs.CodeFileNotRead:
		return http.StatusConflict
	case llmfs.CodeQuotaExceeded:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}
