package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/tools"
)

// Files are MCP resources: file:// URIs through one resource template, file:///{+path}.
// In agentool the path is the file's absolute host path, as the tools show it; in rtc it
// is the virtual path (file:///src/a.go), so no host path leaks. A read goes through the
// workspace like a tool's (path rules, deny rules, the mode, the client's roots) but
// returns the file whole: text when it is UTF-8 without NUL bytes, else a blob, with a
// MIME type from its extension or its first bytes.
//
// resources/list walks the directories depth first in name order, a page at a time;
// the cursor is the last path listed, so a page costs a walk of the tree up to it and
// no state is kept between pages. Names starting with "." are left out, as find does.
//
// Subscriptions are fed by the journal (feed.go): while anyone listens, one goroutine
// per directory waits on the journal's change feed ([llmfs.History.WaitChange]),
// which wakes at once for a change made in this process and within the store's poll
// interval (a cheap query of the newest change id) for one made by another process or
// replica. A change to a subscribed file, or to a directory holding it, sends
// notifications/resources/updated; a file or directory appearing, vanishing or moving
// sends notifications/resources/list_changed. A workspace without a journal falls back
// to reading and hashing each subscribed file every [Options.PollInterval].

const (
	fileTemplate = "file:///{+path}"
	// DefaultMaxResourceBytes is the largest file a resources/read returns.
	DefaultMaxResourceBytes = 16 << 20
	// DefaultResourcePageSize is the default of [Options.ResourcePageSize].
	DefaultResourcePageSize = 100
	// DefaultPollInterval is the default of [Options.PollInterval].
	DefaultPollInterval = 250 * time.Millisecond
)

// addResources registers the file template.
func (s *server) addResources(srv *mcp.Server) {
	s.srv = srv
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: fileTemplate,
		Name:        "file",
		Title:       "A file in the served directories",
		Description: "Any file the server's directories hold and its rules let you read, text or binary.",
	}, s.readResource)
	srv.AddReceivingMiddleware(s.listResourcesMiddleware)
}

// uriPath returns the path a file:// URI names, in the dialect's terms.
func (s *server) uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" || !path.IsAbs(u.Path) {
		return "", &llmfs.Error{Code: llmfs.CodeInvalidPath, Msg: fmt.Sprintf("not a file:// URI of an absolute path: %q", uri)}
	}
	return path.Clean(u.Path), nil
}

func fileURIOf(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

// resolveResource returns the workspace that holds the file of uri, and its path there,
// after the client's roots.
func (s *server) resolveResource(ctx context.Context, ss *mcp.ServerSession, meta mcp.Meta, uri string) (*llmfs.Workspace, string, error) {
	p, err := s.uriPath(uri)
	if err != nil {
		return nil, "", err
	}
	abs, i, err := s.locate(p)
	if err != nil {
		return nil, "", err
	}
	if ss != nil {
		st, err := s.session(ctx, ss)
		if err != nil {
			return nil, "", err
		}
		allowed, err := s.allowed(ctx, ss, st)
		if err != nil {
			return nil, "", err
		}
		allowed = s.metaNarrow(meta, allowed)
		if allowed != nil && !slices.ContainsFunc(allowed, func(dir string) bool { return within(dir, abs) }) {
			return nil, "", &llmfs.Error{Code: llmfs.CodeInvalidPath, Path: p, Msg: "path is outside the client's roots: " + p}
		}
		return st.toolboxes[i].Workspace(), p, nil
	}
	return s.workspace(i), p, nil
}

// workspace returns directory i as the dialect sees it.
func (s *server) workspace(i int) *llmfs.Workspace {
	if s.dialect == tools.RTC {
		return s.roots[i].With(llmfs.VirtualPaths())
	}
	return s.roots[i]
}

func (s *server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	ws, p, err := s.resolveResource(ctx, req.Session, req.Params.Meta, uri)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	b, err := ws.ReadFile(ctx, p, DefaultMaxResourceBytes)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	// The etag, for a resource write's ifMatch (resourcewrite.go): on the contents, and
	// on the result, where a client that reads only _meta of results finds it.
	etag := mcp.Meta{"etag": store.Hash(b)}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeType(p, b), Meta: etag}
	if isText(b) {
		c.Text = string(b)
	} else {
		c.Blob = b
	}
	return &mcp.ReadResourceResult{Meta: etag, Contents: []*mcp.ResourceContents{c}}, nil
}

// resourceError is a JSON-RPC error: resource-not-found for a missing file, else
// invalid-params whose message starts with the llmfs code.
func resourceError(uri string, err error) error {
	e := tools.ErrorOf(err)
	if e.Code == string(llmfs.CodeFileNotFound) {
		return mcp.ResourceNotFoundError(uri)
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: e.Code + ": " + e.Message}
}

func isText(b []byte) bool {
	return utf8.Valid(b) && !slices.Contains(b, 0)
}

func mimeType(p string, b []byte) string {
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	if isText(b) {
		return "text/plain; charset=utf-8"
	}
	return http.DetectContentType(b)
}

// listResourcesMiddleware answers resources/list with the files, a page at a time.
func (s *server) listResourcesMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		lr, ok := req.(*mcp.ListResourcesRequest)
		if !ok {
			return next(ctx, method, req)
		}
		cursor, meta := "", mcp.Meta(nil)
		if lr.Params != nil {
			cursor, meta = lr.Params.Cursor, lr.Params.Meta
		}
		res, err := s.listResources(ctx, lr.Session, meta, cursor)
		if err != nil {
			return nil, resourceError("", err)
		}
		return res, nil
	}
}

// listCursor is where a page ends: directory Root, path Path (in the dialect's terms).
type listCursor struct {
	Root int    `json:"r"`
	Path string `json:"p"`
}

func (s *server) listResources(ctx context.Context, ss *mcp.ServerSession, meta mcp.Meta, cursor string) (*mcp.ListResourcesResult, error) {
	var after *listCursor
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		after = &listCursor{}
		if err != nil || json.Unmarshal(b, after) != nil || after.Root < 0 || after.Root >= len(s.roots) {
			return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "invalid cursor"}
		}
	}
	var allowed []string
	wss := make([]*llmfs.Workspace, len(s.roots))
	for i := range s.roots {
		wss[i] = s.workspace(i)
	}
	if ss != nil {
		st, err := s.session(ctx, ss)
		if err != nil {
			return nil, err
		}
		if allowed, err = s.allowed(ctx, ss, st); err != nil {
			return nil, err
		}
	}
	allowed = s.metaNarrow(meta, allowed)
	// Answered here rather than by the go-sdk, so its cache hints are set here too.
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
	setCacheable(ctx, nil, &res.Cacheable)
	for i, ws := range wss {
		if after != nil && i < after.Root {
			continue
		}
		start := ws.Root()
		if s.dialect == tools.RTC {
			start = "/"
		}
		from := ""
		if after != nil && i == after.Root {
			from = after.Path
		}
		full, err := s.walk(ctx, ws, start, from, allowed, &res.Resources)
		if err != nil {
			return nil, err
		}
		if full {
			last := res.Resources[len(res.Resources)-1]
			p, _ := s.uriPath(last.URI)
			b, _ := json.Marshal(listCursor{Root: i, Path: p})
			res.NextCursor = base64.RawURLEncoding.EncodeToString(b)
			return res, nil
		}
	}
	return res, nil
}

// walk appends the files below dir that come after from in walk order, until the page
// is full; it reports whether it is.
func (s *server) walk(ctx context.Context, ws *llmfs.Workspace, dir, from string, allowed []string, out *[]*mcp.Resource) (bool, error) {
	entries, err := ws.List(ctx, dir)
	if err != nil {
		if llmfs.CodeOf(err) == llmfs.CodeFileNotFound || llmfs.CodeOf(err) == llmfs.CodePermissionDenied {
			return false, nil // vanished or denied meanwhile
		}
		return false, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name, ".") {
			continue
		}
		p := path.Join(dir, e.Name)
		if from != "" && !within(p, from) && walkOrder(p, from) < 0 {
			continue // the whole of p came before the cursor
		}
		if e.Type == llmfs.TypeDirectory {
			if full, err := s.walk(ctx, ws, p, from, allowed, out); full || err != nil {
				return full, err
			}
			continue
		}
		if from != "" && walkOrder(p, from) <= 0 {
			continue
		}
		if allowed != nil {
			abs, _, err := s.locate(p)
			if err != nil || !slices.ContainsFunc(allowed, func(d string) bool { return within(d, abs) }) {
				continue
			}
		}
		r := &mcp.Resource{URI: fileURIOf(p), Name: e.Name, MIMEType: mime.TypeByExtension(path.Ext(p)), Size: e.Size}
		if !e.ModTime.IsZero() {
			r.Annotations = &mcp.Annotations{LastModified: e.ModTime.UTC().Format(time.RFC3339)}
		}
		*out = append(*out, r)
		if len(*out) >= s.pageSize {
			return true, nil
		}
	}
	return false, nil
}

// walkOrder compares two paths as a depth-first walk in name order meets them: element
// by element.
func walkOrder(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}
