package s3blob_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/llmfs/llmfs/store/blob"
	"github.com/llmfs/llmfs/store/blob/s3blob"
)

// TestConnsReused: many gets at once, and as many again, reuse the connections of the
// first round. The SDK's default kept 10 idle connections per host, so each round past
// that dialed anew (a grep of the Go tree spent 15% of its CPU dialing).
func TestConnsReused(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("b"); err != nil {
		t.Fatal(err)
	}
	var dials, waiting atomic.Int64
	// The first round's gets wait for one another, so it has 32 connections open at once.
	gate, all := atomic.Bool{}, make(chan struct{})
	fake := gofakes3.New(backend).Server()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && gate.Load() {
			if waiting.Add(1) == 32 {
				close(all)
			}
			<-all
		}
		fake.ServeHTTP(w, r)
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
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
	data := []byte("shared content\n")
	key := blob.ChunkKey(blob.Sum(data))
	if _, err := s.PutIfAbsent(ctx, key, data); err != nil {
		t.Fatal(err)
	}
	round := func() {
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				if _, err := s.Get(ctx, key); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	gate.Store(true)
	round()
	gate.Store(false)
	first := dials.Load()
	round()
	if again := dials.Load() - first; again > 0 {
		t.Errorf("the second round of 32 gets dialed %d connections (the first %d), want none", again, first)
	}
}
