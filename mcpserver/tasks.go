package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/llmfs/llmfs/mcpserver/internal/stdio"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Long calls as tasks: the tasks extension of 2026-07-28 (SEP-2663). A tools/call of a
// client that declares the extension in the request's capabilities, and that runs longer
// than [Options.TaskAfter], is answered with a task (resultType "task") while it goes on;
// the client polls tasks/get for its state and, once it is completed, its result (the
// CallToolResult it would have had), and may stop it with tasks/cancel, which cancels the
// call's context as notifications/cancelled does for a call still waiting. A call that
// ends sooner is answered as usual, and so is every call of a client without the
// extension (progress notifications, notifications/cancelled).
//
// Tasks live in the server's memory: they end with the process. A finished task is kept
// for [taskTTL] after it was made, then dropped.

// TasksExtension is the identifier of the tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// DefaultTaskAfter is the default of [Options.TaskAfter].
const DefaultTaskAfter = 2 * time.Second

const (
	taskTTL          = time.Hour
	taskPollInterval = 500 * time.Millisecond
	maxTasks         = 1000 // tasks kept at most; more are refused as tasks, run as calls
)

// task is a tools/call running (or run) as a task.
type task struct {
	id      string
	created time.Time
	cancel  context.CancelFunc
	done    chan struct{} // closed when the call has ended

	mu        sync.Mutex
	updated   time.Time
	cancelled bool // tasks/cancel came
	res       mcp.Result
	err       error
}

// tasks are a server's tasks, by id.
type tasks struct {
	mu sync.Mutex
	m  map[string]*task
}

// start makes a task for a call cancelled by cancel, or returns nil when there are too
// many.
func (ts *tasks) start(cancel context.CancelFunc) *task {
	b := make([]byte, 16)
	rand.Read(b)
	now := time.Now()
	t := &task{id: hex.EncodeToString(b), created: now, updated: now, cancel: cancel, done: make(chan struct{})}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.m == nil {
		ts.m = map[string]*task{}
	}
	for id, old := range ts.m {
		if now.Sub(old.created) > taskTTL && old.ended() {
			delete(ts.m, id)
		}
	}
	if len(ts.m) >= maxTasks {
		return nil
	}
	ts.m[t.id] = t
	return t
}

// get returns the task id asked for by a request whose params are p: of a client that
// declares the extension (else -32021, as the extension asks).
func (ts *tasks) get(p *TaskIDParams) (*task, error) {
	if !metaDeclaresTasks(p.Meta) {
		return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "Missing required client capability",
			Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`)}
	}
	id := p.TaskID
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t := ts.m[id]; t != nil {
		return t, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such task: " + id}
}

func (ts *tasks) drop(id string) {
	ts.mu.Lock()
	delete(ts.m, id)
	ts.mu.Unlock()
}

func (t *task) ended() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// finish records the outcome of the call.
func (t *task) finish(res mcp.Result, err error) {
	t.mu.Lock()
	t.res, t.err, t.updated = res, err, time.Now()
	t.mu.Unlock()
	close(t.done)
}

// taskState is a task on the wire: a CreateTaskResult (resultType "task"), or the
// result of tasks/get (resultType "complete", with the result or error of a finished one).
type taskState struct {
	mcp.ResultBase
	ResultType     string         `json:"resultType"`
	TaskID         string         `json:"taskId"`
	Status         string         `json:"status"`
	StatusMessage  string         `json:"statusMessage,omitempty"`
	CreatedAt      string         `json:"createdAt"`
	LastUpdatedAt  string         `json:"lastUpdatedAt"`
	TTLMs          int64          `json:"ttlMs"`
	PollIntervalMs int64          `json:"pollIntervalMs"`
	Result         mcp.Result     `json:"result,omitempty"`
	Error          *jsonrpc.Error `json:"error,omitempty"`
}

// state returns t as the wire shows it, with resultType rt.
func (t *task) state(rt string) *taskState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := &taskState{ResultType: rt, TaskID: t.id, Status: "working",
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs: taskTTL.Milliseconds(), PollIntervalMs: taskPollInterval.Milliseconds()}
	switch {
	case !t.ended():
		if t.cancelled {
			st.StatusMessage = "cancelling"
		}
	case t.cancelled:
		st.Status, st.StatusMessage = "cancelled", "cancelled by tasks/cancel"
	case t.err != nil:
		st.Status, st.Error = "failed", stdio.WireError(t.err)
	default:
		st.Status, st.Result = "completed", t.res
	}
	return st
}

// declaresTasks reports whether the call req comes from a client of 2026-07-28 that
// declares the tasks extension in its request.
func declaresTasks(req *mcp.CallToolRequest) bool {
	if req.ProtocolVersion() < "2026-07-28" {
		return false
	}
	caps := req.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// metaDeclaresTasks reports whether a request's _meta declares the tasks extension
// among the client's capabilities.
func metaDeclaresTasks(meta mcp.Meta) bool {
	caps, _ := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	exts, _ := caps["extensions"].(map[string]any)
	_, ok := exts[TasksExtension]
	return ok
}

// tasksMiddleware runs the tools/call of a client that declares the tasks extension as a
// task once it has run [Options.TaskAfter].
func (s *server) tasksMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || s.taskAfter <= 0 || !declaresTasks(call) {
			return next(ctx, method, req)
		}
		// The call must outlive its request once it is a task.
		tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		t := s.tasks.start(cancel)
		if t == nil {
			cancel()
			return next(ctx, method, req)
		}
		go func() {
			res, err := next(tctx, method, req)
			t.finish(res, err)
		}()
		timer := time.NewTimer(s.taskAfter)
		defer timer.Stop()
		select {
		case <-t.done:
			s.tasks.drop(t.id)
			cancel()
			return t.res, t.err
		case <-ctx.Done():
			// notifications/cancelled before the call became a task: stop it, as
			// without tasks.
			cancel()
			<-t.done
			s.tasks.drop(t.id)
			return t.res, t.err
		case <-timer.C:
			return t.state("task"), nil
		}
	}
}

// TaskIDParams are the params of tasks/get, tasks/update and tasks/cancel.
type TaskIDParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

// taskAck is the empty result of tasks/update and tasks/cancel.
type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// addTasks registers tasks/get, tasks/update and tasks/cancel.
func (s *server) addTasks(srv *mcp.Server) error {
	return errors.Join(
		mcp.AddReceivingCustomMethod(srv, "tasks/get", func(_ context.Context, _ *mcp.ServerSession, p *TaskIDParams) (*taskState, error) {
			t, err := s.tasks.get(p)
			if err != nil {
				return nil, err
			}
			return t.state("complete"), nil
		}),
		// llmfs's tasks never wait for input: an update of a known task is acknowledged
		// and ignored, as the extension asks of responses to no outstanding request.
		mcp.AddReceivingCustomMethod(srv, "tasks/update", func(_ context.Context, _ *mcp.ServerSession, p *TaskIDParams) (*taskAck, error) {
			if _, err := s.tasks.get(p); err != nil {
				return nil, err
			}
			return &taskAck{ResultType: "complete"}, nil
		}),
		mcp.AddReceivingCustomMethod(srv, "tasks/cancel", func(_ context.Context, _ *mcp.ServerSession, p *TaskIDParams) (*taskAck, error) {
			t, err := s.tasks.get(p)
			if err != nil {
				return nil, err
			}
			t.mu.Lock()
			if !t.ended() {
				t.cancelled = true
				t.updated = time.Now()
			}
			t.mu.Unlock()
			t.cancel()
			return &taskAck{ResultType: "complete"}, nil
		}),
	)
}
