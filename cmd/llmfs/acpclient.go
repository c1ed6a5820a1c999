//go:build !js && !wasip1

package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/acp"
	"github.com/llmfs/llmfs/internal/termtext"
)

// Approval policies for the agent's permission requests.
const (
	acpApproveAsk  = "ask"  // ask on acpClientOptions.Stdout, read the answer from Input
	acpApproveAll  = "all"  // allow everything (once)
	acpApproveNone = "none" // reject everything
)

// acpClientOptions configure [runACPClient].
type acpClientOptions struct {
	// Root is the session's cwd and the directory the agent may read and write; empty
	// means the current directory.
	Root string
	// Roots are further directories the session may reach.
	Roots []string
	// Mode is the work mode; [llmfs.ReadOnly] advertises reads only.
	Mode llmfs.Mode
	// Approve answers the agent's permission requests: [acpApproveAsk] (the default),
	// [acpApproveAll] or [acpApproveNone].
	Approve string
	// Prompt is the text sent to the agent.
	Prompt string
	// Command is the agent and its arguments. It runs in Root.
	Command []string
	// Env, if not nil, is the agent's environment; nil inherits this process's.
	Env []string
	// Input holds the answers to permission questions under [acpApproveAsk], one a line (an
	// option number or id). Nil or at EOF, a question is answered with a rejection.
	Input io.Reader
	// Stdout receives the session as readable text; Stderr the agent's stderr. Nil
	// discards.
	Stdout, Stderr io.Writer
	// Workspace, if not nil, is the template for the workspaces that serve the agent's
	// reads and writes (deny rules, quotas); see [FileServerOptions.Workspace].
	Workspace *llmfs.Options
	// ClientName is sent in initialize; empty means "llmfs".
	ClientName, ClientVersion string
}

// acpSummary is what [runACPClient] reports when the prompt turn ends.
type acpSummary struct {
	SessionID  string
	StopReason string
	// Changes are the agent's writes, oldest first.
	Changes []acp.Change
	// Checkpoint names the journal's point at the start of the prompt turn, "" when the
	// directories keep no journal.
	Checkpoint string
}

// acpTurnCheckpoint names the checkpoint of prompt turn n of session id.
func acpTurnCheckpoint(id string, n int) string {
	return fmt.Sprintf("acp:%.120s:turn-%d", strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, id), n)
}

// runACPClient is a headless ACP client, the logic of `llmfs acp`. It starts the agent,
// initializes with the fs capabilities the mode allows, opens a session on Root, sends the
// prompt, prints the agent's session updates as text, serves fs requests through a
// sandboxed [acp.FileServer], answers permission requests per Approve, and prints a summary
// of the files changed. If ctx ends, it sends session/cancel, gives the agent a few
// seconds to stop, then kills it.
func runACPClient(ctx context.Context, opts acpClientOptions) (*acpSummary, error) {
	root, err := opts.check()
	if err != nil {
		return nil, err
	}
	out := &acpPrinter{w: opts.Stdout}
	fsrv := acp.NewFileServer(&acp.FileServerOptions{
		Mode:      opts.Mode,
		Roots:     opts.Roots,
		OnChange:  func(c acp.Change) { out.change(root, c) },
		Workspace: opts.Workspace,
	})
	a, err := startACPAgent(opts, root)
	if err != nil {
		return nil, err
	}
	ready := make(chan struct{}) // closed once the session is registered with fsrv
	perm := &acpPermitter{policy: opts.Approve, out: out, in: opts.Input, stop: make(chan struct{})}
	conn := acp.NewConn(a.stdout, a.stdin, acpClientHandler(fsrv, out, perm, ready))
	defer a.stop(conn)

	// Calls fail when the agent exits; watch for that as well as for ctx.
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-conn.Done():
			cancel()
		case <-callCtx.Done():
		}
	}()

	sid, err := openACPSession(callCtx, conn, fsrv, &opts, root)
	if err != nil {
		return nil, err
	}
	close(ready)
	sum := &acpSummary{SessionID: sid}
	// A checkpoint at the start of the prompt turn: `llmfs restore NAME` takes it back.
	if cp := acpTurnCheckpoint(sid, 1); fsrv.Checkpoint(callCtx, sid, cp) == nil {
		sum.Checkpoint = cp
	}
	sum.StopReason, err = acpPromptTurn(ctx, callCtx, conn, perm, sid, opts.Prompt)
	// Show the updates the agent sent before it answered the prompt.
	conn.SyncNotifications()
	out.endLine()
	sum.Changes = fsrv.Changes()
	out.summary(root, sum)
	if err != nil {
		return sum, fmt.Errorf("acp: session/prompt: %w", acpAgentErr(err, conn))
	}
	return sum, nil
}

// check validates opts, fills in its defaults, and returns the root made absolute.
func (opts *acpClientOptions) check() (string, error) {
	if len(opts.Command) == 0 {
		return "", errors.New("acp: no agent command")
	}
	switch opts.Approve {
	case "":
		opts.Approve = acpApproveAsk
	case acpApproveAsk, acpApproveAll, acpApproveNone:
	default:
		return "", fmt.Errorf("acp: approve must be ask, all or none, got %q", opts.Approve)
	}
	if !opts.Mode.Valid() {
		return "", fmt.Errorf("acp: unknown mode %q", opts.Mode)
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	root, err := filepath.Abs(cmp.Or(opts.Root, "."))
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(root); err != nil {
		return "", fmt.Errorf("acp: root: %w", err)
	} else if !fi.IsDir() {
		return "", fmt.Errorf("acp: root is not a directory: %s", root)
	}
	return root, nil
}

// acpAgentProc is the agent's process and the pipes to it.
type acpAgentProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	exited chan error
}

// startACPAgent starts opts.Command in root.
func startACPAgent(opts acpClientOptions, root string) (*acpAgentProc, error) {
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Dir = root
	cmd.Env = opts.Env
	cmd.Stderr = opts.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("acp: starting agent: %w", err)
	}
	a := &acpAgentProc{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan error, 1)}
	go func() { a.exited <- cmd.Wait() }()
	return a, nil
}

// stop closes conn, which closes the agent's stdin so that a well-behaved agent exits,
// kills the agent if it has not within a few seconds, and waits for conn's handlers.
func (a *acpAgentProc) stop(conn *acp.Conn) {
	conn.Close()
	select {
	case <-a.exited:
	case <-time.After(5 * time.Second):
		a.cmd.Process.Kill()
		<-a.exited
	}
	conn.Wait() // no handler writes to Stdout after runACPClient returns
}

// acpClientHandler answers the agent's requests: fs methods once the session is ready,
// session updates by printing them, permission requests through perm.
func acpClientHandler(fsrv *acp.FileServer, out *acpPrinter, perm *acpPermitter, ready <-chan struct{}) acp.Handler {
	return func(hctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case acp.MethodReadTextFile, acp.MethodWriteTextFile:
			select {
			case <-ready:
			case <-hctx.Done():
				return nil, hctx.Err()
			}
			return fsrv.Handle(hctx, method, params)
		case acp.MethodSessionUpdate:
			out.update(params)
			return nil, nil
		case acp.MethodRequestPermission:
			return perm.answer(hctx, params)
		}
		return nil, acp.MethodNotFound(method)
	}
}

// openACPSession initializes the agent and opens a session on root, registered with fsrv.
func openACPSession(ctx context.Context, conn *acp.Conn, fsrv *acp.FileServer, opts *acpClientOptions, root string) (string, error) {
	var init acp.InitializeResponse
	err := conn.Call(ctx, acp.MethodInitialize, &acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersion,
		ClientCapabilities: acp.ClientCapabilities{FS: fsrv.Capabilities()},
		ClientInfo:         &acp.Implementation{Name: cmp.Or(opts.ClientName, "llmfs"), Version: opts.ClientVersion},
	}, &init)
	if err != nil {
		return "", fmt.Errorf("acp: initialize: %w", acpAgentErr(err, conn))
	}
	if init.ProtocolVersion != acp.ProtocolVersion {
		return "", fmt.Errorf("acp: the agent speaks ACP version %d, not %d", init.ProtocolVersion, acp.ProtocolVersion)
	}
	var sess acp.NewSessionResponse
	err = conn.Call(ctx, acp.MethodSessionNew, &acp.NewSessionRequest{Cwd: root, AdditionalDirectories: opts.Roots, MCPServers: []any{}}, &sess)
	if err != nil {
		return "", fmt.Errorf("acp: session/new: %w", acpAgentErr(err, conn))
	}
	if err := fsrv.AddSession(sess.SessionID, root, opts.Roots...); err != nil {
		return "", err
	}
	return sess.SessionID, nil
}

// acpPromptTurn sends the prompt and waits for the turn's stop reason. If the caller's ctx
// ends first, it answers the questions pending with "cancelled", as ACP asks, asks the
// agent to stop, and waits a little for it; callCtx ending otherwise means the agent left.
func acpPromptTurn(ctx, callCtx context.Context, conn *acp.Conn, perm *acpPermitter, sid, prompt string) (string, error) {
	var res struct {
		StopReason string `json:"stopReason"`
	}
	promptErr := make(chan error, 1)
	go func() {
		promptErr <- conn.Call(context.WithoutCancel(callCtx), acp.MethodSessionPrompt, map[string]any{
			"sessionId": sid,
			"prompt":    []map[string]string{{"type": "text", "text": prompt}},
		}, &res)
	}()
	var err error
	select {
	case err = <-promptErr:
	case <-callCtx.Done():
		if ctx.Err() != nil {
			close(perm.stop)
			conn.Notify(context.Background(), acp.MethodSessionCancel, map[string]string{"sessionId": sid})
			select {
			case err = <-promptErr:
			case <-time.After(3 * time.Second):
				err = ctx.Err()
			}
		} else {
			err = <-promptErr
		}
	}
	return res.StopReason, err
}

// acpAgentErr explains a failed call: an agent that exited says so.
func acpAgentErr(err error, conn *acp.Conn) error {
	if errors.Is(err, acp.ErrClosed) || errors.Is(err, context.Canceled) {
		select {
		case <-conn.Done():
			return fmt.Errorf("the agent closed the connection (exited?): %w", err)
		default:
		}
	}
	return err
}

// acpPermitter answers session/request_permission.
type acpPermitter struct {
	mu     sync.Mutex // one question at a time
	policy string
	out    *acpPrinter
	stop   chan struct{} // closed when the turn is cancelled: pending questions end

	in       io.Reader
	readOnce sync.Once
	lines    chan string // the lines of in, read as the questions need them; closed at its end
}

// nextLine returns the next line of input, trimmed, or false at its end or when the
// question is given up (ctx ends or the turn is cancelled). Input is read on a goroutine
// of its own, so that a question never outlives its turn waiting on a terminal; that
// goroutine stays blocked on an input that never ends.
func (pm *acpPermitter) nextLine(ctx context.Context) (string, bool) {
	pm.readOnce.Do(func() {
		pm.lines = make(chan string)
		go func() {
			defer close(pm.lines)
			r := bufio.NewReader(pm.in)
			for {
				line, err := r.ReadString('\n')
				if line != "" || err == nil {
					pm.lines <- strings.TrimSpace(line)
				}
				if err != nil {
					return
				}
			}
		}()
	})
	select {
	case line, ok := <-pm.lines:
		return line, ok
	case <-ctx.Done():
	case <-pm.stop:
	}
	return "", false
}

type acpPermOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

func (pm *acpPermitter) answer(ctx context.Context, params json.RawMessage) (any, error) {
	var req struct {
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
		} `json:"toolCall"`
		Options []acpPermOption `json:"options"`
	}
	if err := acp.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	what := req.ToolCall.Title
	if what == "" {
		what = req.ToolCall.ToolCallID
	}
	what = termtext.Name(what)
	var chosen *acpPermOption
	switch pm.policy {
	case acpApproveAll:
		chosen = pickACPOption(req.Options, "allow_once", "allow_always")
	case acpApproveNone:
		chosen = pickACPOption(req.Options, "reject_once", "reject_always")
	default:
		chosen = pm.ask(ctx, what, req.Options)
	}
	if chosen == nil {
		pm.out.line("[permission] %s -> cancelled", what)
		return map[string]any{"outcome": map[string]string{"outcome": "cancelled"}}, nil
	}
	pm.out.line("[permission] %s -> %s", what, termtext.Name(chosen.Name))
	return map[string]any{"outcome": map[string]string{"outcome": "selected", "optionId": chosen.OptionID}}, nil
}

// ask puts the question to the user; nil means it was given up (cancelled).
func (pm *acpPermitter) ask(ctx context.Context, what string, opts []acpPermOption) *acpPermOption {
	var b strings.Builder
	fmt.Fprintf(&b, "[permission] the agent asks: %s\n", what)
	for i, o := range opts {
		fmt.Fprintf(&b, "  %d) %s [%s]\n", i+1, termtext.Name(o.Name), termtext.Name(o.Kind))
	}
	b.WriteString("choose a number: ")
	pm.out.mu.Lock()
	pm.out.lineLocked()
	pm.out.write(b.String())
	pm.out.mu.Unlock()
	reject := pickACPOption(opts, "reject_once", "reject_always")
	if pm.in == nil {
		pm.out.line("(no input; rejecting)")
		return reject
	}
	line, ok := pm.nextLine(ctx)
	select {
	case <-pm.stop:
		return nil
	case <-ctx.Done():
		return nil
	default:
	}
	pm.out.line("%s", termtext.Name(line))
	if !ok {
		return reject
	}
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(opts) {
		return &opts[n-1]
	}
	for i := range opts {
		if opts[i].OptionID == line {
			return &opts[i]
		}
	}
	return reject
}

// pickACPOption returns the first option of the first kind present.
func pickACPOption(opts []acpPermOption, kinds ...string) *acpPermOption {
	for _, k := range kinds {
		for i := range opts {
			if opts[i].Kind == k {
				return &opts[i]
			}
		}
	}
	return nil
}
