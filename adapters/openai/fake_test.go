package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store/mem"
)

// fakeAPI answers POSTs with scripted bodies, in order, and keeps each request body.
type fakeAPI struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []json.RawMessage
}

func newFakeAPI(t *testing.T, path string, replies ...string) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.bodies)
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != path || n >= len(replies) {
			t.Errorf("unexpected request %d: %s %s", n, r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, replies[n])
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) client() sdk.Client {
	return sdk.NewClient(option.WithBaseURL(f.URL+"/v1"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func (f *fakeAPI) body(t *testing.T, i int) json.RawMessage {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.bodies) {
		t.Fatalf("the API got %d requests, want more than %d", len(f.bodies), i)
	}
	return f.bodies[i]
}

func newWorkspace(t *testing.T, files map[string]string) *llmfs.Workspace {
	t.Helper()
	ws := llmfs.New(mem.New(), nil)
	for name, content := range files {
		if _, err := ws.Write(context.Background(), name, content, llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func readFile(t *testing.T, ws *llmfs.Workspace, name string) string {
	t.Helper()
	b, err := ws.ReadFile(context.Background(), name, 1<<20)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return string(b)
}
