//go:build !js && !wasip1

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/tools"
)

// dialectServer makes a server of the dialect with the history tools over a directory
// holding a small file, and returns it with a function that writes the directory's path
// as DIR, times as TIME and session ids as ID (the two servers compared are made a
// moment apart, and name their sessions at random).
func dialectServer(t *testing.T, d tools.Dialect) (*Server, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte(strings.Repeat("a line of a small file\n", 30)), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(ws, &Options{Dialect: d, HistoryTools: true})
	if err != nil {
		t.Fatal(err)
	}
	times := regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?`)
	ids := regexp.MustCompile(`stdio-[A-Z0-9]+`)
	return srv, func(s string) string {
		s = times.ReplaceAllString(strings.ReplaceAll(s, dir, "DIR"), "TIME")
		return ids.ReplaceAllString(s, "stdio-ID")
	}
}

// callsFor returns tools/call params for every tool of d: arguments made from each
// tool's schema (the required properties, then all of them), and invalid ones (none, an
// empty object, an unknown key, a wrong type, not an object).
func callsFor(t *testing.T, d tools.Dialect) []string {
	t.Helper()
	defs, err := tools.DefinitionsFor(d, llmfs.Full, &tools.Options{History: true})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, def := range defs {
		var schema struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(def.InputSchema, &schema); err != nil {
			t.Fatalf("%s: %v", def.Name, err)
		}
		required, all, wrong := map[string]any{}, map[string]any{}, map[string]any{}
		names := make([]string, 0, len(schema.Properties))
		for name := range schema.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			typ := fmt.Sprint(schema.Properties[name].Type)
			v := valueFor(name, typ)
			all[name] = v
			if slicesContains(schema.Required, name) {
				required[name] = v
				wrong[name] = wrongFor(typ)
			}
		}
		for _, args := range []any{required, all, wrong, map[string]any{}, map[string]any{"bogus": 1}, "small.txt", nil} {
			b, err := json.Marshal(map[string]any{"name": def.Name, "arguments": args})
			if err != nil {
				t.Fatal(err)
			}
			calls = append(calls, string(b))
		}
		calls = append(calls, fmt.Sprintf(`{"name":%q}`, def.Name))
	}
	return calls
}

func slicesContains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// valueFor is a plausible value of a property: a path names the small file.
func valueFor(name, typ string) any {
	switch {
	case strings.Contains(typ, "string") && strings.Contains(name, "path"):
		return "small.txt"
	case strings.Contains(typ, "string"):
		return "a line of a small file"
	case strings.Contains(typ, "integer"), strings.Contains(typ, "number"):
		return 1
	case strings.Contains(typ, "boolean"):
		return false
	case strings.Contains(typ, "array"):
		return []any{}
	case strings.Contains(typ, "object"):
		return map[string]any{}
	}
	return "small.txt"
}

// wrongFor is a value of another type than typ.
func wrongFor(typ string) any {
	if strings.Contains(typ, "string") {
		return 7
	}
	return "7"
}

// TestServeStdioEveryToolAsRun sends every tool of every dialect, with valid and invalid
// arguments, through ServeStdio (whose transport runs the calls itself) and through
// srv.Run (the go-sdk runs them), each on a server of its own over the same files, and
// checks that the answers are the same bytes, and that ServeStdio did run the calls it
// could itself.
func TestServeStdioEveryToolAsRun(t *testing.T) {
	for _, d := range tools.Dialects {
		t.Run(string(d), func(t *testing.T) {
			calls := callsFor(t, d)
			var answers [2][]string
			var fast atomic.Int64
			for i, serve := range []func(context.Context, *Server, *StdioTransport) error{serveRun, ServeStdio} {
				srv, anon := dialectServer(t, d)
				if i == 1 {
					countCalls(srv.state, &fast)
				}
				c := servePipes(t, srv, serve)
				for j, p := range calls {
					answers[i] = append(answers[i], anon(c.call(t, fmt.Sprint(j+1), "tools/call", p)))
				}
			}
			for j := range calls {
				if answers[0][j] != answers[1][j] {
					t.Errorf("%s:\nRun        %s\nServeStdio %s", calls[j], answers[0][j], answers[1][j])
				}
			}
			ok := 0
			for _, a := range answers[1] {
				if !strings.Contains(a, `"isError":true`) && !strings.Contains(a, `"error":`) {
					ok++
				}
			}
			t.Logf("%d calls, %d succeeded, %d run by the transport itself", len(calls), ok, fast.Load())
			if ok == 0 {
				t.Error("no call succeeded: the arguments made from the schemas are all wrong")
			}
			if fast.Load() == 0 {
				t.Errorf("ServeStdio ran none of the %d calls itself", len(calls))
			}
		})
	}
}

// countCalls counts the calls s's handlers run for ServeStdio's transport (the go-sdk
// holds handlers of its own, which it does not count).
func countCalls(s *server, n *atomic.Int64) {
	for name, h := range s.handlers {
		s.handlers[name] = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n.Add(1)
			return h(ctx, req)
		}
	}
}

// TestServeStdioLeavesCallsToMiddleware checks that once the go-sdk server has been
// taken with MCP (to add middleware, say), ServeStdio runs no call itself: middleware
// added there sees every call.
func TestServeStdioLeavesCallsToMiddleware(t *testing.T) {
	srv, _ := stdioServer(t)
	var seen, fast atomic.Int64
	countCalls(srv.state, &fast)
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				seen.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	c := servePipes(t, srv, ServeStdio)
	for i := range 3 {
		if line := c.call(t, fmt.Sprint(i+1), "tools/call", `{"name":"file_read","arguments":{"path":"small.txt"}}`); !strings.Contains(line, "a line of a small file") {
			t.Fatal(line)
		}
	}
	if seen.Load() != 3 || fast.Load() != 0 {
		t.Errorf("middleware saw %d calls of 3, the transport ran %d itself", seen.Load(), fast.Load())
	}
}
