//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver"
	"github.com/llmfs/llmfs/tools"
)

func resourceDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for name, content := range map[string][]byte{"a.txt": []byte("a < b\n"), "img.png": png, "secret/key.txt": []byte("k"), "sub/b.go": []byte("package b\n")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestResourcesRead: files are file:// resources through the template, text or blob
// with a MIME type; deny rules, a missing file and a URI outside the directories fail.
func TestResourcesRead(t *testing.T) {
	dir := resourceDir(t)
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{Deny: []string{"secret/**"}, Mode: llmfs.ReadOnly}), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, srv, nil)
	ctx := context.Background()
	if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe {
		t.Errorf("resources capability %+v, want subscribe", caps.Resources)
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "file:///{+path}" {
		t.Fatalf("templates %+v, %v", tmpl, err)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fileURI(filepath.Join(dir, "a.txt"))})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "a < b\n" || !strings.HasPrefix(res.Contents[0].MIMEType, "text/plain") {
		t.Fatalf("read a.txt: %+v, %v", res, err)
	}
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fileURI(filepath.Join(dir, "img.png"))})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "image/png" || len(res.Contents[0].Blob) != 16 || res.Contents[0].Text != "" {
		t.Fatalf("read img.png: %+v, %v", res, err)
	}
	for uri, want := range map[string]string{
		fileURI(filepath.Join(dir, "secret/key.txt")): "PERMISSION_DENIED",
		fileURI(filepath.Join(dir, "nope.txt")):       "not found",
		"file:///etc/passwd":                          "INVALID_PATH",
		fileURI(filepath.Join(dir, "sub")):            "INVALID_PATH",
	} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("read %s: %v, want %s", uri, err, want)
		}
	}
}

// TestResourcesRTCVirtual: in rtc the URIs are virtual paths.
func TestResourcesRTCVirtual(t *testing.T) {
	dir := resourceDir(t)
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{}), &mcpserver.Options{Dialect: tools.RTC})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, srv, nil)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file:///sub/b.go"})
	if err != nil || res.Contents[0].Text != "package b\n" {
		t.Fatalf("read file:///sub/b.go: %+v, %v", res, err)
	}
	list, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		if strings.Contains(r.URI, dir) {
			t.Errorf("rtc lists a host path: %s", r.URI)
		}
	}
}

// TestResourcesListPaginated: resources/list pages through every file once, in walk
// order, leaving out denied and hidden ones.
func TestResourcesListPaginated(t *testing.T) {
	dir := resourceDir(t)
	for i := range 23 {
		name := filepath.Join(dir, fmt.Sprintf("d%d/f%02d.txt", i%3, i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(openWS(t, dir, llmfs.Options{Deny: []string{"secret/**"}}), &mcpserver.Options{ResourcePageSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, srv, nil)
	var got []string
	pages := 0
	cursor := ""
	for {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range res.Resources {
			got = append(got, strings.TrimPrefix(r.URI, fileURI(dir)+"/"))
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	if len(got) != 26 || pages != 6 {
		t.Fatalf("%d resources in %d pages, want 26 in 6: %v", len(got), pages, got)
	}
	if got[0] != "a.txt" || got[1] != "d0/f00.txt" || got[len(got)-1] != "sub/b.go" {
		t.Errorf("order: %v", got)
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] || strings.Contains(g, "secret") || strings.Contains(g, ".hidden") {
			t.Errorf("listed %s (twice, denied or hidden)", g)
		}
		seen[g] = true
	}
	if _, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "garbage"}); err == nil {
		t.Error("a bad cursor was accepted")
	}
}

// TestResourceSubscriptionHTTP: a write by another client reaches a subscriber of the
// file within 1 s, over llmfs serve.
func TestResourceSubscriptionHTTP(t *testing.T) {
	dir := tempDir(t)
	writeFile(t, filepath.Join(dir, "watched.txt"), "v1\n")
	s := startServe(t, "--root", dir)
	updated := make(chan string, 10)
	sub := s.connect(t, mcp.NewClient(&mcp.Implementation{Name: "subscriber", Version: "0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
	}))
	uri := fileURI(filepath.Join(dir, "watched.txt"))
	if err := sub.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	writer := s.connect(t, nil)
	ok(t, writer, "file_write", `{"path":"watched.txt","content":"v2\n"}`)
	select {
	case got := <-updated:
		if got != uri {
			t.Errorf("update for %s, want %s", got, uri)
		}
	case <-time.After(time.Second):
		t.Fatal("no resources/updated within 1 s of the write")
	}
	res, err := sub.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || res.Contents[0].Text != "v2\n" {
		t.Errorf("read after the update: %+v, %v", res, err)
	}
}
