package console

import (
	"encoding/json"
	"net/http"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/search"
	"github.com/llmfs/llmfs/sysfiles"
)

// maxResults caps the grep and find answers: the page shows a list, not a dump.
const maxResults = 500

// api answers the console's file requests through the Workspace API, as actor "web".
type api struct {
	ws        *llmfs.Workspace
	system    *sysfiles.Options
	systemOff string // not empty: the system files are off; how to turn them on
}

func (a *api) info(w http.ResponseWriter, r *http.Request) {
	bytes, files, err := a.ws.Usage(r.Context())
	if err != nil {
		failErr(w, err)
		return
	}
	q := a.ws.Settings().Policy.Quota
	reply(w, map[string]any{"root": a.ws.Root(), "mode": a.ws.Settings().Mode, "actor": a.ws.Settings().Actor,
		"journaled": a.ws.Settings().Journaled, "review": overlayOf(a.ws) != nil,
		"bytes": bytes, "files": files, "max_bytes": q.MaxBytes, "max_files": q.MaxFiles})
}

func (a *api) list(w http.ResponseWriter, r *http.Request) {
	es, err := a.ws.List(r.Context(), pathParam(r))
	if err != nil {
		failErr(w, err)
		return
	}
	if es == nil {
		es = []llmfs.Entry{}
	}
	reply(w, es)
}

// pathParam is the request's path, the root when absent.
func pathParam(r *http.Request) string {
	if p := r.URL.Query().Get("path"); p != "" {
		return p
	}
	return "."
}

func (a *api) read(w http.ResponseWriter, r *http.Request) {
	res, err := a.ws.Read(r.Context(), pathParam(r), llmfs.ReadOptions{})
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]any{"path": a.ws.Paths().Rel(res.Path), "content": res.Content,
		"total_lines": res.TotalLines, "truncated": res.Truncated})
}

func (a *api) write(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Content string  `json:"content"`
		Base    *string `json:"base"`
	}
	if !decode(w, r, &req) {
		return
	}
	if req.Base != nil {
		// The content the person started from: if the file holds something else now
		// (an agent wrote meanwhile), refuse rather than overwrite their change.
		cur, err := a.ws.Read(r.Context(), pathParam(r), llmfs.ReadOptions{})
		if err != nil && llmfs.CodeOf(err) != llmfs.CodeFileNotFound {
			failErr(w, err)
			return
		}
		if (err != nil && *req.Base != "") || (err == nil && (cur.Truncated || cur.Content != *req.Base)) {
			fail(w, http.StatusConflict, string(llmfs.CodeFileChanged), "the file changed since it was loaded; reload it, then edit again")
			return
		}
	}
	res, err := a.ws.Write(r.Context(), pathParam(r), req.Content, llmfs.WriteOptions{})
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]any{"path": a.ws.Paths().Rel(res.Path), "bytes": res.Bytes, "created": res.Created})
}

func (a *api) edit(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path string `json:"path"`
		Old  string `json:"old"`
		New  string `json:"new"`
		All  bool   `json:"all"`
	}
	if !decode(w, r, &req) {
		return
	}
	res, err := a.ws.Edit(r.Context(), req.Path, req.Old, req.New, req.All)
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]any{"path": a.ws.Paths().Rel(res.Path), "replacements": res.Replacements})
}

func (a *api) move(w http.ResponseWriter, r *http.Request) {
	var req struct {
		From string `json:"from"`
		To   string `json:"to"`
	}
	if !decode(w, r, &req) {
		return
	}
	res, err := a.ws.Move(r.Context(), req.From, req.To)
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]any{"path": a.ws.Paths().Rel(res.Destination)})
}

func (a *api) delete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path string `json:"path"`
	}
	if !decode(w, r, &req) {
		return
	}
	p, err := a.ws.Delete(r.Context(), req.Path)
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]any{"path": a.ws.Paths().Rel(p)})
}

// hit is one grep match.
type hit struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Matches are the matches in Text, [start, end) in UTF-16 code units.
	Matches [][2]int `json:"matches,omitempty"`
}

func (a *api) grep(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := a.ws.Grep(r.Context(), llmfs.GrepOptions{Pattern: q.Get("pattern"), Path: q.Get("path"),
		Mode: llmfs.GrepContent, IgnoreCase: q.Get("i") != "", LineNumbers: true, HeadLimit: maxResults})
	if err != nil {
		failErr(w, err)
		return
	}
	out := []hit{}
	re := grepRegexp(q.Get("pattern"), q.Get("i") != "")
	for _, e := range res.Entries {
		if e.Kind == search.KindMatch {
			// e.Path is relative to the root already; Rel would cut a virtual
			// workspace's first letter off it (Issue 16.3).
			out = append(out, hit{Path: e.Path, Line: e.Line, Text: e.Text, Matches: matchSpans(re, e.Text)})
		}
	}
	reply(w, out)
}

func (a *api) find(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := a.ws.Find(r.Context(), q.Get("pattern"), llmfs.FindOptions{Path: q.Get("path"), Limit: maxResults})
	if err != nil {
		failErr(w, err)
		return
	}
	out := []string{}
	for _, f := range res.Files {
		out = append(out, f.Path)
	}
	reply(w, out)
}

// decode reads a small JSON request body strictly.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "bad request body: "+err.Error())
		return false
	}
	return true
}
