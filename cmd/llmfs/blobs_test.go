//go:build !js && !wasip1

package main

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// s3Env is the URL of an S3-compatible server's bucket for the end-to-end test (.ci/run
// starts versitygw and sets it, with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).
const s3Env = "LLMFS_TEST_S3"

// inProcessS3 serves gofakes3 on 127.0.0.1 and returns a --blobs URL in a fresh bucket.
func inProcessS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("llmfs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	return "s3://llmfs/t?region=us-east-1&endpoint=" + srv.URL
}

func TestBlobsInProcess(t *testing.T) { testBlobs(t, inProcessS3(t)) }

// TestBlobsServer runs the same against a real S3-compatible server (versitygw in CI).
func TestBlobsServer(t *testing.T) {
	url := os.Getenv(s3Env)
	if url == "" {
		if os.Getenv("LLMFS_REQUIRE_S3") != "" {
			t.Fatalf("%s is not set: .ci/run starts versitygw and sets it", s3Env)
		}
		t.Skipf("no S3-compatible server: set %s to s3://BUCKET?endpoint=URL&region=R (.ci/run starts versitygw)", s3Env)
	}
	// A prefix of its own, so runs sharing the bucket do not see each other's objects.
	base, query, _ := strings.Cut(url, "?")
	testBlobs(t, fmt.Sprintf("%s/run-%d-%d?%s", strings.TrimSuffix(base, "/"), os.Getpid(), len(t.Name()), query))
}

var objectsLine = regexp.MustCompile(`^(\d+) objects, (\d+) older than .*, (\d+) deleted`)

// testBlobs imports a tree with large files into a workspace whose content goes to the
// object store at url, forks it (no object added), reads both back, and collects garbage
// after the fork and the original are gone.
func testBlobs(t *testing.T, url string) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "ws.db")
	src := t.TempDir()
	var want [][]byte
	for i := range 5 {
		var b bytes.Buffer
		for j := 0; b.Len() < 150_000; j++ {
			fmt.Fprintf(&b, "file %d line %d\n", i, j)
		}
		want = append(want, b.Bytes())
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("f%d.txt", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(src, "small.txt"), []byte("small\n"), 0o644)
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("llmfs %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	objects := func() (total, deleted int) {
		t.Helper()
		out := must("ws", "gc", "--store", dsn, "--blobs", url, "--grace", "1h")
		m := objectsLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("ws gc said %q", out)
		}
		fmt.Sscan(m[1], &total)
		fmt.Sscan(m[3], &deleted)
		return total, deleted
	}
	must("ws", "create", "--store", dsn, "--blobs", url, "a")
	must("ws", "import", "--store", dsn, "--blobs", url, "a", src)
	n, _ := objects()
	if n != 5*2 { // two full 64 KiB chunks in each 150,000-byte file
		t.Fatalf("%d objects after the import, want 10", n)
	}
	must("ws", "fork", "--store", dsn, "--blobs", url, "a", "b")
	if after, _ := objects(); after != n {
		t.Fatalf("the fork added %d objects", after-n)
	}
	for _, ws := range []string{"a", "b"} {
		for i, w := range want {
			got := must("read", "--store", dsn, "--blobs", url, "--workspace", ws, "--limit", "100000", fmt.Sprintf("f%d.txt", i))
			if got != string(w) {
				t.Fatalf("f%d.txt in %s reads back %d bytes, want %d", i, ws, len(got), len(w))
			}
		}
	}
	// Without --blobs, content kept in object storage is an error that says why.
	code, _, errOut := runCLI(t, "read", "--store", dsn, "--workspace", "a", "f0.txt")
	if code == 0 || !strings.Contains(errOut, "--blobs") {
		t.Fatalf("read without --blobs: exit %d, %q", code, errOut)
	}
	must("ws", "rm", "--store", dsn, "--blobs", url, "a")
	if _, deleted := objects(); deleted != 0 {
		t.Fatalf("gc deleted %d objects the fork refers to", deleted)
	}
	must("ws", "rm", "--store", dsn, "--blobs", url, "b")
	out := must("ws", "gc", "--store", dsn, "--blobs", url, "--grace", "0s")
	if m := objectsLine.FindStringSubmatch(out); m == nil || m[3] != fmt.Sprint(n) {
		t.Fatalf("ws gc --grace 0s with nothing referring to the objects: %q, want %d deleted", out, n)
	}
}
