// Package console is llmfs's web console: a page for the people who own the files, to
// browse and edit them, watch every change any actor makes as it happens, read its diff,
// undo it, make and restore checkpoints, and review what an agent left pending under
// --review. `llmfs serve` mounts it at "/".
//
// The page (ui/, embedded) is static and holds no data: it is served without a token.
// Everything it shows comes from the JSON API under /api/, which needs the header
// "Authorization: Bearer TOKEN" (the token `llmfs serve` prints in the console URL's
// fragment, #token=TOKEN, which the page keeps in session storage). The API answers 401
// without it. There is no cookie and the token is never in a URL the server sees, so a
// foreign page cannot make an authorised request (it can neither read the token nor set
// the header on a cross-origin request without a CORS preflight, which is never granted);
// the Host and Origin headers must name a loopback address or an allowed host (403),
// which defeats DNS rebinding.
//
// The API, all through the [llmfs.Workspace] API with the actor "web", the review routes
// through the store/overlay layer the workspace works on (paths relative to
// the workspace root; errors are {"code", "message"} with the status of [history]):
//
//	GET  /api/info                          {"root", "mode", "review", "journaled", "actor",
//	                                        "bytes", "files", "max_bytes", "max_files"}
//	GET  /api/list?path=P                   [{"name", "type": "file"|"directory", "size"}]
//	GET  /api/list?path=P&limit=N&cursor=C  a page: {"entries", "next" (the next cursor), "total"}
//	GET  /api/read?path=P                   {"path", "content", "total_lines", "truncated"}
//	PUT  /api/file?path=P   {"content", "base"?}  write (create or overwrite) {"path", "bytes", "created"};
//	                                        with base (the content as loaded; "" for a new file)
//	                                        a file that holds anything else is refused: 409 FILE_CHANGED
//	POST /api/edit  {"path", "old", "new", "all"}   replace text {"path", "replacements"}
//	POST /api/move  {"from", "to"}          rename {"path"}
//	POST /api/delete {"path"}               delete a file or empty directory {"path"}
//	GET  /api/grep?pattern=RE&path=P&i=1    [{"path", "line", "text"}] (at most 500)
//	GET  /api/find?pattern=GLOB&path=P      ["path", ...] (at most 500)
//	GET  /api/system                        [{"path", "state": "generated"|"edited"|"missing"|"off", "hint"?}]
//	POST /api/system/restore {"path"}       regenerate a system file, edits dropped {"path"}
//	GET  /api/review                        {"review", "changes": [llmfs.PendingChange]} (--review)
//	GET  /api/review/diff?path=P            the pending changes' unified diff (text/plain)
//	POST /api/review/apply {"paths", "hunks"?, "version"?}    apply pending changes, or some hunks of them
//	POST /api/review/discard {"paths", "hunks"?, "version"?}  discard them: {"resolved", "conflicts"}
//	     /api/history/...                   the history API of package [history]: changes,
//	                                        the live feed (/api/history/events, Server-Sent
//	                                        Events), diffs, undo, checkpoints, restore
//
// API.md in this directory documents every route in full.
//
// The page is plain HTML, JavaScript modules (ui/console.js, with review.js, diff.js and
// actor.js) and CSS; its third-party code (highlight.js) is bundled by esbuild from the
// pinned ui-src/package-lock.json into the committed ui/vendor.js (loaded after the tree
// has shown): run ui-src/build.sh after changing ui-src, and commit.
//
// A client of the feed that must send the header reads /api/history/events with a
// streaming fetch rather than EventSource (which cannot set headers).
package console

import (
	"crypto/subtle"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console/history"
	"github.com/llmfs/llmfs/internal/hostcheck"
	"github.com/llmfs/llmfs/internal/pagepolicy"
	"github.com/llmfs/llmfs/sysfiles"
)

//go:embed ui
var uiFiles embed.FS

// Actor is the journal's actor for the changes people make in the console.
const Actor = "web"

// Options configure [Handler].
type Options struct {
	// Token is the bearer token the API requires. It must not be empty.
	Token string
	// Hosts are the host names, besides the loopback ones, that the Host and Origin
	// headers may name.
	Hosts []string
	// System describes the workspace's system files (AGENT.md), to show their state and
	// restore their default; nil: none are shown.
	System *sysfiles.Options
	// SystemOff, when not empty, says the system files are off in this workspace (as by
	// default on a host directory, where they would add files to someone's repository)
	// and how to turn them on. The API shows them as "off" with this text, and refuses to
	// restore them: a restore would write into the tree the person chose to keep clean.
	SystemOff string
}

// UI returns the page's files (index.html, console.js, ...): what [Handler] serves at "/".
// Package web serves the same files at /demo/ for the in-browser console, where the page
// talks to this package's handler compiled to WebAssembly instead of a server.
func UI() fs.FS {
	ui, _ := fs.Sub(uiFiles, "ui")
	return ui
}

// Handler serves the console for ws at "/" (the page) and "/api/" (the API).
func Handler(ws *llmfs.Workspace, opts Options) http.Handler {
	ws = ws.With(llmfs.Actor(Actor))
	hosts := hostcheck.Loopback(opts.Hosts...)
	system := opts.System
	if overlayOf(ws) != nil {
		// Under review the system files are llmfs's on the base, not made in the layer.
		system = nil
	}
	a := &api{ws: ws, system: system, systemOff: opts.SystemOff}
	apiMux := http.NewServeMux()
	apiMux.HandleFunc("GET /api/info", a.info)
	apiMux.HandleFunc("GET /api/list", a.list)
	apiMux.HandleFunc("GET /api/read", a.read)
	apiMux.HandleFunc("PUT /api/file", a.write)
	apiMux.HandleFunc("POST /api/edit", a.edit)
	apiMux.HandleFunc("POST /api/move", a.move)
	apiMux.HandleFunc("POST /api/delete", a.delete)
	apiMux.HandleFunc("GET /api/grep", a.grep)
	apiMux.HandleFunc("GET /api/find", a.find)
	apiMux.HandleFunc("GET /api/system", a.systemFiles)
	apiMux.HandleFunc("POST /api/system/restore", a.restoreSystem)
	rv := &review{ws: ws, ov: overlayOf(ws)}
	apiMux.HandleFunc("GET /api/review", rv.pending)
	apiMux.HandleFunc("GET /api/review/diff", rv.diff)
	apiMux.HandleFunc("POST /api/review/apply", rv.apply)
	apiMux.HandleFunc("POST /api/review/discard", rv.discard)
	apiMux.Handle("/api/history/", http.StripPrefix("/api/history", history.Handler(ws)))

	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(UI()))
	mux.Handle("/api/", apiMux)
	return &guard{next: mux, token: opts.Token, hosts: hosts}
}

// guard checks the Host and Origin headers on every request and the token on the API's.
type guard struct {
	next  http.Handler
	token string
	hosts hostcheck.Names
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pagepolicy.Set(w.Header(), false)
	if !g.hosts.Host(r.Host) {
		http.Error(w, "forbidden host", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !g.hosts.Origin(o) {
		http.Error(w, "forbidden origin", http.StatusForbidden)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/api/") && !g.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		fail(w, http.StatusUnauthorized, "UNAUTHENTICATED", "missing or wrong bearer token")
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g *guard) authorized(header string) bool {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || g.token == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(g.token)) == 1
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}

// failErr answers with err's code and the status that fits it, as the history routes do.
func failErr(w http.ResponseWriter, err error) { history.WriteError(w, err) }
