package console_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/console"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/overlay"
)

const twelve = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"

// TestConsoleReviewAPI: the review routes list the pending changes, diff them, and apply
// or discard per file and per hunk; bad requests are coded errors that change nothing;
// a workspace not under review says so.
func TestConsoleReviewAPI(t *testing.T) {
	ctx := context.Background()
	base := mem.New()
	bws := llmfs.New(base, nil)
	if _, err := bws.Write(ctx, "/a.txt", twelve, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ov, err := overlay.New(ctx, base, mem.New())
	if err != nil {
		t.Fatal(err)
	}
	ws := bws.With(llmfs.OnStore(ov)).With(llmfs.Actor("agent"))
	edited := strings.Replace(strings.Replace(twelve, "one", "ONE", 1), "twelve", "TWELVE", 1)
	if _, err := ws.Write(ctx, "/a.txt", edited, llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(console.Handler(ws, console.Options{Token: "tok"}))
	t.Cleanup(srv.Close)
	url := srv.URL

	if code, body := request(t, "GET", url+"/api/info", "tok", ""); code != 200 || !strings.Contains(body, `"review":true`) {
		t.Errorf("GET /api/info: %d %s", code, body)
	}
	if code, body := request(t, "GET", url+"/api/review", "tok", ""); code != 200 || !strings.Contains(body, `{"path":"a.txt","kind":"modified","added":2,"removed":2,"hunks":2,"version":"`) {
		t.Errorf("GET /api/review: %d %s", code, body)
	}
	if code, body := request(t, "GET", url+"/api/review/diff?path=a.txt", "tok", ""); code != 200 || !strings.Contains(body, "-one\n+ONE\n") || !strings.Contains(body, "+TWELVE\n") {
		t.Errorf("GET /api/review/diff: %d %s", code, body)
	}
	for _, bad := range []struct{ body, code string }{
		{`{"paths":[]}`, "INVALID_ARGUMENT"},
		{`{"paths":["a.txt"],"hunks":[0]}`, "INVALID_ARGUMENT"},
		{`{"paths":["nothing.txt"]}`, "FILE_NOT_FOUND"},
		{`{"path":"a.txt"}`, "INVALID_ARGUMENT"},
		{`{"paths":["a.txt"],"version":"0123456789abcdef"}`, "FILE_CHANGED"}, // moved since (issue 35)
		{`{"paths":["a.txt","b.txt"],"version":"0123456789abcdef"}`, "INVALID_ARGUMENT"},
	} {
		if code, body := request(t, "POST", url+"/api/review/apply", "tok", bad.body); code < 400 || !strings.Contains(body, bad.code) {
			t.Errorf("POST /api/review/apply %s: %d %s, want %s", bad.body, code, body, bad.code)
		}
	}
	if got, _ := bws.Read(ctx, "/a.txt", llmfs.ReadOptions{}); got.Content != twelve {
		t.Fatalf("a refused apply changed the base: %q", got.Content)
	}

	// Hunk 2 applies alone; then the rest is discarded.
	if code, body := request(t, "POST", url+"/api/review/apply", "tok", `{"paths":["a.txt"],"hunks":[2]}`); code != 200 || !strings.Contains(body, `"action":"applied"`) || !strings.Contains(body, `"conflicts":[]`) {
		t.Errorf("apply hunk 2: %d %s", code, body)
	}
	want := strings.Replace(twelve, "twelve", "TWELVE", 1)
	if got, _ := bws.Read(ctx, "/a.txt", llmfs.ReadOptions{}); got.Content != want {
		t.Errorf("after hunk 2 the base holds %q, want %q", got.Content, want)
	}
	if code, body := request(t, "POST", url+"/api/review/discard", "tok", `{"paths":["."]}`); code != 200 || !strings.Contains(body, `"action":"discarded"`) {
		t.Errorf("discard all: %d %s", code, body)
	}
	if code, body := request(t, "GET", url+"/api/review", "tok", ""); code != 200 || !strings.Contains(body, `"changes":[]`) {
		t.Errorf("GET /api/review after: %d %s", code, body)
	}
	if got, _ := bws.Read(ctx, "/a.txt", llmfs.ReadOptions{}); got.Content != want {
		t.Errorf("after the discard the base holds %q, want %q", got.Content, want)
	}

	// A conflict: the base changes behind the agent.
	if _, err := ws.Write(ctx, "/a.txt", "agent\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := bws.Write(ctx, "/a.txt", "person\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if code, body := request(t, "POST", url+"/api/review/apply", "tok", `{"paths":["a.txt"]}`); code != 200 || !strings.Contains(body, `"code":"FILE_CHANGED","path":"a.txt","what":"modified"`) || !strings.Contains(body, `"resolved":[]`) {
		t.Errorf("apply over a changed base: %d %s", code, body)
	}
	if got, _ := bws.Read(ctx, "/a.txt", llmfs.ReadOptions{}); got.Content != "person\n" {
		t.Errorf("the conflicting apply changed the base: %q", got.Content)
	}

	// Not under review: nothing pending, and the routes that act say why.
	_, plain := newConsole(t)
	if code, body := request(t, "GET", plain+"/api/review", "tok", ""); code != 200 || !strings.Contains(body, `"review":false`) {
		t.Errorf("GET /api/review not under review: %d %s", code, body)
	}
	if code, body := request(t, "POST", plain+"/api/review/apply", "tok", `{"paths":["."]}`); code != 400 || !strings.Contains(body, "--review") {
		t.Errorf("POST /api/review/apply not under review: %d %s", code, body)
	}
}
