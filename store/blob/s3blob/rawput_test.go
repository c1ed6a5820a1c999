package s3blob_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/llmfs/llmfs/store/blob"
	"github.com/llmfs/llmfs/store/blob/s3blob"
)

// TestPutRetries: a put is a plain signed request, not the SDK's operation (rawput.go:
// the SDK's stack was a sixth of an import's CPU), whose payload hash is the hash its
// chunk key names; one the server fails with 503 is tried again; a second put of the key
// finds the object there.
func TestPutRetries(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("b"); err != nil {
		t.Fatal(err)
	}
	fake := gofakes3.New(backend).Server()
	var fails, puts, viaSDK atomic.Int64
	var payload atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			puts.Add(1)
			payload.Store(r.Header.Get("X-Amz-Content-Sha256"))
			if r.Header.Get("Amz-Sdk-Invocation-Id") != "" {
				viaSDK.Add(1)
			}
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
	data := []byte("a chunk of content put\n")
	sum := blob.Sum(data)
	fails.Store(2)
	if created, err := s.PutIfAbsent(ctx, blob.ChunkKey(sum), data); err != nil || !created {
		t.Fatalf("PutIfAbsent after two 503s = %v, %v", created, err)
	}
	if n := puts.Load(); n != 3 {
		t.Errorf("%d requests for a put failed twice, want 3", n)
	}
	if n := viaSDK.Load(); n != 0 {
		t.Errorf("%d puts through the SDK, want none", n)
	}
	if p := payload.Load(); p != sum {
		t.Errorf("payload hash %v, want the key's %s", p, sum)
	}
	if created, err := s.PutIfAbsent(ctx, blob.ChunkKey(sum), data); err != nil || created {
		t.Errorf("second put: created %v, %v; want found there", created, err)
	}
	if got, err := s.Get(ctx, blob.ChunkKey(sum)); err != nil || !bytes.Equal(got, data) {
		t.Errorf("Get = %q, %v", got, err)
	}
	// A key that names no chunk: its payload hash is computed.
	if _, err := s.PutIfAbsent(ctx, "other/x", data); err != nil || payload.Load() != sum {
		t.Errorf("put of another key: %v, payload hash %v, want %s", err, payload.Load(), sum)
	}
	fails.Store(1 << 20)
	if _, err := s.PutIfAbsent(ctx, blob.ChunkKey(blob.Sum([]byte("x"))), []byte("x")); err == nil {
		t.Error("put to a server failing every request: no error")
	}
}

// TestPutChecked: a server that checks payloads (versitygw, with LLMFS_TEST_S3 set)
// refuses content put under the chunk key of other content.
func TestPutChecked(t *testing.T) {
	u := os.Getenv("LLMFS_TEST_S3")
	if u == "" {
		t.Skip("set LLMFS_TEST_S3 (see .ci/s3.sh)")
	}
	ctx := context.Background()
	s, err := s3blob.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("content of TestPutChecked\n")
	key := blob.ChunkKey(blob.Sum(data))
	s.Delete(ctx, key)
	if _, err := s.PutIfAbsent(ctx, key, []byte("other content\n")); err == nil {
		t.Error("content put under another content's key: no error")
	}
	if _, err := s.PutIfAbsent(ctx, key, data); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, key); err != nil || !bytes.Equal(got, data) {
		t.Errorf("Get = %q, %v", got, err)
	}
}
