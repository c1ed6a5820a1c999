package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/buildinfo"
	"github.com/llmfs/llmfs/internal/strictjson"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/overlay"
	"github.com/llmfs/llmfs/tools"
)

// The reviewer's server. An agent under review works through [New] on a workspace over the
// overlay (package store/overlay); the person, or the program, who reviews its changes
// uses another server, made by [NewReviewer], with four tools and no file tools:
//
//	review_list    {}                       -> {changes: [{path, kind, from?, added, removed, binary?, hunks, version}]}
//	review_diff    {paths?}                 -> {diff, changes}
//	review_apply   {paths?, hunks?, version?} -> {resolved: [...], failed: [{path, code, message, diff?}]}
//	review_discard {paths?, hunks?, version?} -> {resolved: [...], failed: [...]}
//
// Paths are the workspace's (relative to its root, or absolute below it); the paths in
// results are store names, relative to the root, as `llmfs review` prints them. A path
// with no pending change at or below it fails the whole call with FILE_NOT_FOUND and
// nothing is resolved. A conflict (the base changed behind the agent) does not fail the
// call: that file is listed in failed with code FILE_CHANGED and the diff of the base
// now against the pending version, or both sides marked where they overlap; the others
// apply. The tools go through the core's review ([llmfs.Workspace.Review]): applying and
// discarding are journaled on the base under the session's actor ("mcp:<client>/<session>"), and
// obey the workspace's mode and deny rules. version, with one path, is the version
// review_list or review_diff gave it: a change that moved since is refused with
// FILE_CHANGED, nothing touched.
//
// [New] never offers these tools: the model under review cannot apply its own changes.

// reviewTool is one tool of the reviewer's server.
type reviewTool struct {
	name, desc  string
	params      []strictjson.Param
	input       map[string]any
	output      map[string]any
	readOnly    bool
	destructive bool
	run         func(ctx context.Context, r *reviewer, args strictjson.Object) (any, error)
}

type reviewer struct {
	ws *llmfs.Workspace // over ov
	ov *overlay.Overlay

	mu     sync.Mutex
	actors map[*mcp.ServerSession]string // each live session's actor
}

// actorOf returns the actor of the session ss, the same for each of its calls: a session
// without a protocol ID (stdio, stateless HTTP) gets one made up once, not at each call.
func (r *reviewer) actorOf(ctx context.Context, ss *mcp.ServerSession) string {
	_, http := ctx.Value(statelessKey{}).(bool)
	if ss == nil {
		return sessionActor(nil, http)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.actors[ss]; ok {
		return a
	}
	a := sessionActor(ss, http)
	r.actors[ss] = a
	go func() {
		ss.Wait()
		r.mu.Lock()
		delete(r.actors, ss)
		r.mu.Unlock()
	}()
	return a
}

// review returns the core's review of the workspace, under the calling session's actor.
func (r *reviewer) review(ctx context.Context) *llmfs.Review {
	actor, ok := ctx.Value(sessionKey{}).(string)
	if !ok {
		actor = sessionActor(nil, false)
	}
	return r.ws.With(llmfs.Actor(actor)).Review()
}

// sessionKey keys the calling session's actor in a review tool call's context.
type sessionKey struct{}

// NewReviewer returns an MCP server with the review tools over ov, whose paths ws resolves
// (the workspace the agent works in, over ov, or the one beneath it). Only opts.Name,
// opts.Version and opts.Logger are used.
func NewReviewer(ws *llmfs.Workspace, ov *overlay.Overlay, opts *Options) (*Server, error) {
	if ws == nil || ov == nil {
		return nil, errors.New("mcpserver: NewReviewer needs a workspace and its overlay")
	}
	if opts == nil {
		opts = &Options{}
	}
	name, version := opts.Name, opts.Version
	if name == "" {
		name = "llmfs-review"
	}
	if version == "" {
		version = buildinfo.Version()
	}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	appsCapability(caps)
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Title: "llmfs review", Version: version}, &mcp.ServerOptions{
		Instructions: "llmfs review: the changes an agent made under review to " + ws.Root() +
			" are pending; list them (review_list), read their diff (review_diff), then apply (review_apply) or discard (review_discard) them, per file or per hunk.",
		Logger:       opts.Logger,
		SetCacheable: setCacheable,
		// Prompts: answered (with none) by the go-sdk, so declared; see New. Resources: the
		// review view, an MCP App (reviewapp.go).
		Capabilities: caps,
	})
	addReviewApp(srv)
	if ws.Store() != store.Store(ov) {
		ws = ws.With(llmfs.OnStore(ov))
	}
	ask, err := askSet(opts.Ask)
	if err != nil {
		return nil, err
	}
	r := &reviewer{ws: ws, ov: ov, actors: map[*mcp.ServerSession]string{}}
	for _, t := range reviewTools() {
		srv.AddTool(&mcp.Tool{
			Name:         t.name,
			Description:  t.desc,
			InputSchema:  t.input,
			OutputSchema: t.output,
			Meta:         reviewAppMeta(),
			Annotations: &mcp.ToolAnnotations{
				ReadOnlyHint:    t.readOnly,
				DestructiveHint: new(t.destructive),
				IdempotentHint:  t.readOnly,
				OpenWorldHint:   new(false),
			},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args, err := strictjson.Decode(req.Params.Arguments, t.params)
			if err != nil {
				return result(nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: err.Error(), Err: err}), nil
			}
			if t.name == "review_apply" && ask[AskApply] {
				if res := ask.tool(ctx, req, AskApply, r.applyQuestion(ctx, args)); res != nil {
					return res, nil
				}
			}
			v, err := t.run(context.WithValue(ctx, sessionKey{}, r.actorOf(ctx, req.Session)), r, args)
			if err != nil {
				return result(nil, reviewError("", err)), nil
			}
			b, err := tools.Marshal(v)
			if err != nil {
				return result(nil, err), nil
			}
			return result(&tools.Result{JSON: json.RawMessage(b), Text: string(b)}, nil), nil
		})
	}
	return &Server{mcp: srv}, nil
}

// ReviewToolNames are the names of the reviewer's tools, which [New] never offers.
func ReviewToolNames() []string {
	var out []string
	for _, t := range reviewTools() {
		out = append(out, t.name)
	}
	return out
}

var (
	pathsParam   = strictjson.Param{Name: "paths", Kind: strictjson.Strings}
	hunksParam   = strictjson.Param{Name: "hunks", Kind: strictjson.Ints, Min: 1}
	versionParam = strictjson.Param{Name: "version", Kind: strictjson.String}
)

// reviewSchemas are the JSON Schemas the review tools share. They are made anew for each
// reviewer, not kept in package variables: a map a package holds is state every server
// would share.
type reviewSchemas struct {
	paths, hunks, version, change, resolveOut map[string]any
}

func newReviewSchemas() reviewSchemas {
	pathsSchema := map[string]any{"type": "array", "items": map[string]any{"type": "string"},
		"description": "Paths (relative to the root, or absolute below it) whose pending changes, at or below each, to take; all if absent or empty."}
	hunksSchema := map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 1},
		"description": "Only these hunks of each text file, numbered from 1 as review_diff shows them; the whole change if absent."}

	changeSchema := closed(map[string]any{
		"path":    str("The file, relative to the root."),
		"kind":    map[string]any{"type": "string", "enum": []string{"created", "modified", "deleted", "moved"}, "description": "What the change does to the file."},
		"from":    str("Where a moved file came from."),
		"added":   num("Lines added."),
		"removed": num("Lines removed."),
		"binary":  map[string]any{"type": "boolean", "description": "A binary file: no line counts or hunks."},
		"hunks":   num("Hunks of its diff."),
		"version": str("The change's version, for review_apply and review_discard."),
	}, "path", "kind", "added", "removed", "hunks", "version")

	resolvedSchema := closed(map[string]any{
		"path":          str("The file, relative to the root."),
		"kind":          changeSchema["properties"].(map[string]any)["kind"],
		"from":          str("Where a moved file came from."),
		"added":         num("Lines added."),
		"removed":       num("Lines removed."),
		"binary":        map[string]any{"type": "boolean", "description": "A binary file."},
		"hunks":         num("Hunks of its diff."),
		"version":       str("The change's version when it was resolved."),
		"action":        map[string]any{"type": "string", "enum": []string{"applied", "discarded"}, "description": "What was done."},
		"applied_hunks": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "description": "The hunks taken, when not the whole change."},
	}, "path", "kind", "added", "removed", "hunks", "action")

	resolveOut := closed(map[string]any{
		"resolved": map[string]any{"type": "array", "items": resolvedSchema, "description": "The changes applied or discarded."},
		"failed": map[string]any{"type": "array", "description": "The changes left pending, and why.", "items": closed(map[string]any{
			"path":    str("The file, relative to the root."),
			"code":    str("The error code: FILE_CHANGED for a base file changed behind the agent."),
			"message": str("What went wrong."),
			"diff":    str("For FILE_CHANGED: where both changed, the base's file now (current) and the agent's (agent) between git merge-file markers; else the base's file now against the pending version."),
		}, "path", "code", "message")},
	}, "resolved", "failed")
	versionSchema := str("With one path: the version review_list or review_diff gave its change; a change that moved since is refused with FILE_CHANGED, nothing touched.")
	return reviewSchemas{paths: pathsSchema, hunks: hunksSchema, version: versionSchema, change: changeSchema, resolveOut: resolveOut}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func num(desc string) map[string]any {
	return map[string]any{"type": "integer", "minimum": 0, "description": desc}
}

func closed(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func inputOf(props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

// reviewTools returns the review tools, each with its own schemas.
func reviewTools() []reviewTool {
	sc := newReviewSchemas()
	return []reviewTool{
		{
			name:     "review_list",
			desc:     "List the changes pending review, one per file: path, kind (created, modified, deleted, moved), lines added and removed, hunks.",
			input:    inputOf(map[string]any{}),
			output:   closed(map[string]any{"changes": map[string]any{"type": "array", "items": sc.change, "description": "The pending changes, sorted by path."}}, "changes"),
			readOnly: true,
			run: func(ctx context.Context, r *reviewer, _ strictjson.Object) (any, error) {
				cs, err := r.review(ctx).List(ctx)
				if cs == nil {
					cs = []llmfs.PendingChange{}
				}
				return map[string]any{"changes": cs}, err
			},
		},
		{
			name:   "review_diff",
			desc:   "The unified diff of the pending changes against the files under the root, of the given paths (all if none). Hunks are numbered from 1 within each file, for review_apply and review_discard.",
			params: []strictjson.Param{pathsParam},
			input:  inputOf(map[string]any{"paths": sc.paths}),
			output: closed(map[string]any{
				"diff":    str("The unified diff, a patch git apply takes; empty when nothing is pending."),
				"changes": map[string]any{"type": "array", "items": sc.change, "description": "The changes the diff shows, with their versions."},
			}, "diff", "changes"),
			readOnly: true,
			run: func(ctx context.Context, r *reviewer, args strictjson.Object) (any, error) {
				d, cs, err := r.review(ctx).Diff(ctx, args.StringList("paths")...)
				if cs == nil {
					cs = []llmfs.PendingChange{}
				}
				return map[string]any{"diff": d, "changes": cs}, err
			},
		},
		{
			name: "review_apply",
			desc: "Write the pending changes of the given paths (all if none) onto the files under the root, each file atomically; with hunks, only those hunks of each text file. " +
				"A file changed under the root since the agent first read or wrote it is not applied: it is listed in failed with code FILE_CHANGED and a diff.",
			params:      []strictjson.Param{pathsParam, hunksParam, versionParam},
			input:       inputOf(map[string]any{"paths": sc.paths, "hunks": sc.hunks, "version": sc.version}),
			output:      sc.resolveOut,
			destructive: true,
			run: func(ctx context.Context, r *reviewer, args strictjson.Object) (any, error) {
				return r.resolve(ctx, args, r.review(ctx).Apply)
			},
		},
		{
			name:        "review_discard",
			desc:        "Drop the pending changes of the given paths (all if none): the files under the root show through again. With hunks, only those hunks of each text file are dropped.",
			params:      []strictjson.Param{pathsParam, hunksParam, versionParam},
			input:       inputOf(map[string]any{"paths": sc.paths, "hunks": sc.hunks, "version": sc.version}),
			output:      sc.resolveOut,
			destructive: true,
			run: func(ctx context.Context, r *reviewer, args strictjson.Object) (any, error) {
				return r.resolve(ctx, args, r.review(ctx).Discard)
			},
		},
	}
}

// names turns the paths arguments into store names; with pending, each must have a pending
// change at or below it.
// applyQuestion is what --ask apply asks the person before review_apply runs with args:
// "apply 3 pending changes (src/a.go, src/b.go, README.md)?".
func (r *reviewer) applyQuestion(ctx context.Context, args strictjson.Object) string {
	names, _ := r.names(ctx, args.StringList("paths"), false)
	cs, _ := r.review(ctx).List(ctx)
	var which []string
	for _, c := range cs {
		in := len(names) == 0
		for _, n := range names {
			in = in || n == "." || c.Path == n || strings.HasPrefix(c.Path, n+"/") || c.From == n
		}
		if in {
			which = append(which, c.Path)
		}
	}
	what := fmt.Sprintf("%d pending changes", len(which))
	if len(which) == 1 {
		what = "the pending change"
	}
	if len(which) > 5 {
		which = append(which[:5], "...")
	}
	if hunks := args.IntList("hunks"); len(hunks) > 0 {
		what = fmt.Sprintf("hunks %v of %s", hunks, what)
	}
	return fmt.Sprintf("apply %s (%s)?", what, strings.Join(which, ", "))
}

func (r *reviewer) names(ctx context.Context, paths []string, pending bool) ([]string, error) {
	var names []string
	for _, p := range paths {
		n, err := r.ws.Paths().StoreName(p)
		if err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	if !pending || len(names) == 0 {
		return names, nil
	}
	cs, err := r.review(ctx).List(ctx)
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		found := false
		for _, c := range cs {
			found = found || n == "." || c.Path == n || strings.HasPrefix(c.Path, n+"/") || c.From == n
		}
		if !found {
			return nil, &llmfs.Error{Code: llmfs.CodeFileNotFound, Path: paths[i], Msg: fmt.Sprintf("no pending change at or below %s", paths[i])}
		}
	}
	return names, nil
}

// resolveResult is the result of review_apply and review_discard.
type resolveResult struct {
	Resolved []llmfs.Resolved `json:"resolved"`
	Failed   []failure        `json:"failed"`
}

type failure struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Diff    string `json:"diff,omitempty"`
}

func (r *reviewer) resolve(ctx context.Context, args strictjson.Object, do func(context.Context, llmfs.ReviewRequest) ([]llmfs.Resolved, error)) (any, error) {
	paths := args.StringList("paths")
	if _, err := r.names(ctx, paths, true); err != nil {
		return nil, err
	}
	req := llmfs.ReviewRequest{Paths: paths}
	for _, h := range args.IntList("hunks") {
		req.Hunks = append(req.Hunks, int(h))
	}
	if v := args.String("version", ""); v != "" {
		if len(paths) != 1 {
			return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: "version names the version of one path: give exactly one in paths"}
		}
		req.Expect = map[string]string{paths[0]: v}
	}
	done, err := do(ctx, req)
	res := resolveResult{Resolved: done, Failed: []failure{}}
	if res.Resolved == nil {
		res.Resolved = []llmfs.Resolved{}
	}
	if err == nil {
		return res, nil
	}
	if llmfs.CodeOf(err) != "" {
		if _, joined := err.(interface{ Unwrap() []error }); !joined {
			return nil, err // refused as a whole (a version that moved, the mode, a deny rule)
		}
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		f := failure{Message: e.Error()}
		var ce *overlay.ConflictError
		var pe *fs.PathError
		switch {
		case errors.As(e, &ce):
			f.Path, f.Diff = ce.Path, ce.Diff
		case errors.As(e, &pe):
			f.Path = pe.Path
		}
		f.Code = string(reviewError(f.Path, e).(*llmfs.Error).Code)
		res.Failed = append(res.Failed, f)
	}
	return res, nil
}

// reviewError gives an overlay's error its llmfs code.
func reviewError(path string, err error) error {
	var e *llmfs.Error
	if errors.As(err, &e) {
		return err
	}
	code := llmfs.CodeIO
	switch {
	case errors.Is(err, store.ErrChanged):
		code = llmfs.CodeFileChanged
	case errors.Is(err, fs.ErrNotExist):
		code = llmfs.CodeFileNotFound
	case errors.Is(err, fs.ErrInvalid), errors.Is(err, store.ErrInvalidName):
		code = llmfs.CodeInvalidArgument
	case errors.Is(err, fs.ErrPermission):
		code = llmfs.CodePermissionDenied
	}
	return &llmfs.Error{Code: code, Path: path, Msg: err.Error(), Err: err}
}
