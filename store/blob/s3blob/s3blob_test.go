package s3blob_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/llmfs/llmfs/store/blob"
	"github.com/llmfs/llmfs/store/blob/s3blob"
)

// fakeS3 serves an S3-compatible server (gofakes3) on 127.0.0.1 with bucket "b", and
// returns the URL of a store in it under prefix "p".
func fakeS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("b"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	return "s3://b/p?region=us-east-1&endpoint=" + srv.URL
}

func TestS3Store(t *testing.T) {
	ctx := context.Background()
	s, err := s3blob.Open(ctx, fakeS3(t))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("hello, object storage\n")
	key := blob.ChunkKey(blob.Sum(data))
	if created, err := s.PutIfAbsent(ctx, key, data); err != nil || !created {
		t.Fatalf("first put: created %v, %v", created, err)
	}
	if created, err := s.PutIfAbsent(ctx, key, data); err != nil || created {
		t.Fatalf("second put: created %v, %v; want a deduplicated hit", created, err)
	}
	got, err := s.Get(ctx, key)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, %v", got, err)
	}
	if err := blob.Verify(blob.SumOf(key), got); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRange(ctx, key, 7, 6); err != nil || string(got) != "object" {
		t.Fatalf("GetRange = %q, %v", got, err)
	}
	var keys []string
	if err := s.List(ctx, blob.ChunkPrefix, func(o blob.Object) error {
		keys = append(keys, o.Key)
		if o.Size != int64(len(data)) || o.Modified.IsZero() {
			t.Errorf("listed %+v", o)
		}
		return nil
	}); err != nil || len(keys) != 1 || keys[0] != key {
		t.Fatalf("List = %v, %v", keys, err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, key); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get after Delete: %v, want fs.ErrNotExist", err)
	}
}

// TestS3Down: a server that is not there fails within the bound, with the cause.
func TestS3Down(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	s, err := s3blob.Open(context.Background(), "s3://b?region=us-east-1&timeout=3s&endpoint=http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.PutIfAbsent(context.Background(), "chunks/x", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("put to a server that is down: %v", err)
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, u := range []string{
		"s3://key:secret@b", // credentials never on the command line
		"http://b",
		"s3://",
		"s3://b?color=red",
		"s3://b?endpoint=ftp://x",
		"s3://b?timeout=-1s",
	} {
		if _, err := s3blob.Open(context.Background(), u); err == nil {
			t.Errorf("Open(%q) succeeded", u)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) shows the secret: %v", u, err)
		}
	}
}
