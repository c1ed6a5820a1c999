package s3blob_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/llmfs/llmfs/internal/cputime"
	"github.com/llmfs/llmfs/store/blob"
	"github.com/llmfs/llmfs/store/blob/s3blob"
)

// TestGetRetries: a get the server fails with 503 is tried again, and gets the object; a
// missing object is fs.ErrNotExist at once; a range past the end is empty. (Gets are plain
// signed requests, not the SDK's: rawget.go. versitygw, which checks signatures, runs the
// same through cmd/llmfs's TestBlobsServer when LLMFS_TEST_S3 is set.)
func TestGetRetries(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("b"); err != nil {
		t.Fatal(err)
	}
	fake := gofakes3.New(backend).Server()
	var fails, gets atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
			if fails.Add(-1) >= 0 {
				http.Error(w, "slow down", http.StatusServiceUnavailable)
				return
			}
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	ctx := context.Background()
	s, err := s3blob.Open(ctx, "s3://b/p?region=us-east-1&endpoint="+srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("a chunk of content\n")
	key := blob.ChunkKey(blob.Sum(data))
	if _, err := s.PutIfAbsent(ctx, key, data); err != nil {
		t.Fatal(err)
	}
	fails.Store(2)
	gets.Store(0)
	if got, err := s.Get(ctx, key); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after two 503s = %q, %v", got, err)
	}
	if n := gets.Load(); n != 3 {
		t.Errorf("%d requests for a get failed twice, want 3", n)
	}
	gets.Store(0)
	if _, err := s.Get(ctx, blob.ChunkKey(blob.Sum([]byte("none")))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get of a missing object: %v, want fs.ErrNotExist", err)
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("%d requests for a missing object, want 1 (no retry)", n)
	}
	if got, err := s.GetRange(ctx, key, 2, 5); err != nil || string(got) != "chunk" {
		t.Errorf("GetRange = %q, %v", got, err)
	}
	fails.Store(1 << 20)
	if _, err := s.Get(ctx, key); err == nil {
		t.Error("Get from a server failing every request: no error")
	}
}

// BenchmarkGet reads a 64 KiB object from gofakes3 (in this process: its CPU is counted).
//
//	go test -run '^$' -bench Get -count 3 ./store/blob/s3blob
func BenchmarkGet(b *testing.B) {
	backend := s3mem.New()
	if err := backend.CreateBucket("b"); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	b.Cleanup(srv.Close)
	b.Setenv("AWS_ACCESS_KEY_ID", "test")
	b.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	ctx := context.Background()
	s, err := s3blob.Open(ctx, "s3://b?region=us-east-1&endpoint="+srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10/16)
	key := blob.ChunkKey(blob.Sum(data))
	if _, err := s.PutIfAbsent(ctx, key, data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	start := cputime.Self()
	for b.Loop() {
		if _, err := s.Get(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Self()-start)/float64(b.N), "cpu-ns/op")
}
