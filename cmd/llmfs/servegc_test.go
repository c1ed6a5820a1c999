//go:build !js && !wasip1

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeGCEvery: serve --gc-every collects garbage in the background: the objects of a
// removed file go, those of a file still there stay.
func TestServeGCEvery(t *testing.T) {
	url := inProcessS3(t)
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "ws.db")
	src := t.TempDir()
	var keep []byte
	for i := range 2 {
		var b bytes.Buffer
		for j := 0; b.Len() < 150_000; j++ {
			fmt.Fprintf(&b, "file %d line %d\n", i, j)
		}
		keep = b.Bytes()
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("f%d.txt", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("llmfs %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	must("ws", "create", "--store", dsn, "--blobs", url, "a")
	must("ws", "import", "--store", dsn, "--blobs", url, "a", src)
	must("rm", "--store", dsn, "--blobs", url, "--workspace", "a", "f0.txt")

	ctx, cancel := context.WithCancel(context.Background())
	stderr := &urlWriter{found: make(chan string, 1)}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--token", "tok", "--agent-md=false",
			"--store", dsn, "--blobs", url, "--workspace", "a", "--gc-every", "50ms", "--gc-grace", "0s"},
			strings.NewReader(""), &strings.Builder{}, stderr)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.text(), "deleted=2") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no collection deleted f0.txt's two objects:\n%s", stderr.text())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d:\n%s", code, stderr.text())
	}
	if strings.Contains(stderr.text(), "deleted=1") || strings.Contains(stderr.text(), "deleted=3") {
		t.Fatalf("a collection deleted what f1.txt refers to:\n%s", stderr.text())
	}
	if out := must("ws", "gc", "--store", dsn, "--blobs", url, "--grace", "1h"); !strings.HasPrefix(out, "2 objects") {
		t.Fatalf("after the collections: %q, want f1.txt's 2 objects", out)
	}
	if got := must("read", "--store", dsn, "--blobs", url, "--workspace", "a", "--limit", "100000", "f1.txt"); got != string(keep) {
		t.Fatalf("f1.txt reads back %d bytes, want %d", len(got), len(keep))
	}

	// Without --blobs there is nothing to collect: a usage error.
	code, _, errOut := runCLI(t, "serve", "--store", dsn, "--workspace", "a", "--gc-every", "1m")
	if code != 2 || !strings.Contains(errOut, "--blobs") {
		t.Fatalf("--gc-every without --blobs: exit %d, %q", code, errOut)
	}
}
