//go:build !js && !wasip1

package main

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/buildinfo"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

var mcpCmd = &command{
	name:  "mcp",
	args:  "[--root DIR]... | --store DSN --workspace ID  [--dialect agentool|rtc|codex|anthropic|gemini] [--require-read] [--history-tools] [workspace flags]",
	short: "serve the workspace as an MCP server over standard input and output",
	long: `Each --root adds a directory to serve; the first (default: the current directory) is the one
relative paths resolve against, and an absolute path goes to the directory that holds it.
The directories must not nest. Clients that support MCP roots may narrow them, never widen them.
--store and --workspace serve a virtual workspace kept in a database instead (see 'llmfs ws').
Each MCP session tracks its own reads: with --require-read (the default in the rtc dialect),
editing or overwriting a file needs a read of it in the same session first.
With --history-tools the model also gets history (the change journal and its diffs) and undo;
each session's changes are journaled as "mcp:<session id>".
A line that is not a JSON-RPC message gets an error reply and the server reads on; at the end
of the input the calls already read still answer. The log goes to standard error.
--reviewer serves, instead of the file tools, the review tools over the changes pending under
--review for the root (review_list, review_diff, review_apply, review_discard): for the person
or program that reviews, never for the agent under review. Its review view, ui://llmfs/review,
is an MCP App: a client that renders MCP Apps shows the diffs with apply and discard buttons.
--ask delete,move confirms those operations with the person through the client's
elicitation before they run ("delete src/a.go?"); declined, cancelled, or a client that
cannot ask: the call fails with PERMISSION_DENIED and nothing is changed. See docs/mcp.md.`,
	setup: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var f mcpFlags
		f.register(fs, &e.ws)
		maxFrame := fs.Int("max-frame", mcpserver.DefaultMaxFrameBytes, "largest message (one line) in `BYTES`; a longer one gets an error reply")
		reviewer := fs.Bool("reviewer", false, "serve the review tools over the changes pending under --review, instead of the file tools (for the reviewer, not the agent)")
		return func(ctx context.Context, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			var srv *mcpserver.Server
			var err error
			if *reviewer {
				srv, err = f.reviewServer(e, logger)
			} else {
				srv, err = f.server(e, logger)
			}
			if err != nil {
				return err
			}
			// Not mcp.StdioTransport: it ends the session at the first bad line.
			err = mcpserver.ServeStdio(ctx, srv, &mcpserver.StdioTransport{In: e.stdin, Out: e.stdout, MaxFrameBytes: *maxFrame})
			if ctx.Err() != nil {
				return nil // interrupted: a normal end
			}
			return err
		}
	},
}

// mcpFlags are the flags of the commands that serve MCP: the workspace flags, with a
// repeatable --root, and the dialect.
type mcpFlags struct {
	ws          *wsFlags
	roots       stringList
	dialect     string
	requireRead optBool
	history     bool
	memories    string
	ask         string
	first       *llmfs.Workspace // the default root's workspace, once server has opened it
}

func (f *mcpFlags) register(fs *flag.FlagSet, ws *wsFlags) {
	f.ws = ws
	ws.register(fs)
	// Here --root may be repeated: take the workspace flag over.
	root := fs.Lookup("root")
	root.Value, root.DefValue = &f.roots, ""
	root.Usage = "a `DIR` to serve; repeat for several, the first is the default (default: the current directory)"
	fs.StringVar(&f.dialect, "dialect", "agentool", "tool `DIALECT`: agentool, rtc, codex, anthropic or gemini")
	fs.Var(&f.requireRead, "require-read", "require reading a file in the session before editing or overwriting it (default: on in rtc, off in agentool)")
	fs.BoolVar(&f.history, "history-tools", false, "also offer the model the history tools: history (the change journal, diffs) and undo")
	fs.StringVar(&f.ask, "ask", "", "confirm these destructive `OPERATIONS` with the person through the client (elicitation) before they run: a comma-separated list of delete, move and apply; declined or impossible to ask: refused, nothing changed")
	fs.StringVar(&f.memories, "memories", "", "anthropic dialect: keep the memory tool's notes in `DIR` (made if missing), which the model sees as /memories, instead of a memories directory in the root")
}

// server opens one workspace per root and returns the MCP server over them.
func (f *mcpFlags) server(e *env, logger *slog.Logger) (*mcpserver.Server, error) {
	// A server's live heap is small and each call leaves JSON garbage: collecting at 100%
	// growth spent a fifth of the CPU of a small read in the GC.
	relaxGC()
	dialect := tools.Dialect(f.dialect)
	roots := f.roots
	if len(roots) == 0 {
		roots = []string{""}
	}
	f.ws.root, f.ws.dialect, f.ws.history, f.ws.stderr = roots[0], dialect, f.history, e.stderr
	f.ws.actor = "mcp"     // the journal's actor for the server's changes
	f.ws.background = true // AGENT.md must not hold up initialize
	// The flag, else the first root's configuration, else the dialect's default (nil).
	var requireRead *bool
	if f.requireRead.set {
		requireRead = &f.requireRead.v
	} else if cfg, err := f.ws.loadConfig(); err == nil && cfg.RequireRead != nil {
		requireRead = cfg.RequireRead
	}
	var wss []*llmfs.Workspace
	for _, dir := range roots {
		w := *f.ws
		w.root = dir
		ws, err := w.open()
		if err != nil {
			return nil, err
		}
		wss = append(wss, ws)
	}
	f.first = wss[0]
	memories, err := f.openMemories(dialect)
	if err != nil {
		return nil, err
	}
	srv, err := mcpserver.New(wss[0], &mcpserver.Options{Dialect: dialect, Roots: wss[1:], RequireRead: requireRead, HistoryTools: f.history, Memories: memories, Ask: f.askOps(), Version: buildinfo.Version(), Logger: logger})
	if err != nil {
		return nil, usagef("%v", err)
	}
	return srv, nil
}

// openMemories opens the --memories directory as a workspace of its own (with the
// workspace flags, and no system files), or returns nil without the flag.
func (f *mcpFlags) openMemories(dialect tools.Dialect) (*llmfs.Workspace, error) {
	if f.memories == "" {
		return nil, nil
	}
	if dialect != tools.Anthropic {
		return nil, usagef("--memories applies to the anthropic dialect's memory tool (--dialect anthropic)")
	}
	if f.ws.storeDSN != "" {
		return nil, usagef("--memories applies to host directories: in a --store workspace /memories is kept in the database")
	}
	if err := os.MkdirAll(f.memories, 0o700); err != nil {
		return nil, err
	}
	w := *f.ws
	w.root, w.noSysfiles = f.memories, true
	// The notes are the agent's own, outside the tree: not changes to review.
	w.review.on, w.review.store = false, ""
	return w.open()
}

// reviewServer opens the review layer of the root and returns the reviewer's MCP server.
func (f *mcpFlags) reviewServer(e *env, logger *slog.Logger) (*mcpserver.Server, error) {
	if len(f.roots) > 1 {
		return nil, usagef("--reviewer takes one --root")
	}
	if len(f.roots) == 1 {
		f.ws.root = f.roots[0]
	}
	f.ws.stderr = e.stderr
	ws, ov, err := e.openReview()
	if err != nil {
		return nil, err
	}
	return mcpserver.NewReviewer(ws, ov, &mcpserver.Options{Ask: f.askOps(), Version: buildinfo.Version(), Logger: logger})
}

// askOps returns the operations of --ask: "delete,move" is delete and move.
func (f *mcpFlags) askOps() []string {
	var ops []string
	for op := range strings.SplitSeq(f.ask, ",") {
		if op = strings.TrimSpace(op); op != "" {
			ops = append(ops, op)
		}
	}
	return ops
}
