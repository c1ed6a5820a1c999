//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
)

// notified is a client that reports resources/updated and list_changed notifications.
func notified(version string) (*mcp.Client, chan string, chan struct{}) {
	updated, listChanged := make(chan string, 100), make(chan struct{}, 100)
	c := mcp.NewClient(&mcp.Implementation{Name: "subscriber", Version: "0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			listChanged <- struct{}{}
		},
	})
	clientVersions.Store(c, version)
	return c, updated, listChanged
}

func waitUpdate(t *testing.T, updated chan string, uri, what string) {
	t.Helper()
	deadline := time.After(time.Second)
	for {
		select {
		case got := <-updated:
			if got == uri {
				return
			}
		case <-deadline:
			t.Fatalf("no resources/updated for %s within 1 s of %s", uri, what)
		}
	}
}

func waitListChanged(t *testing.T, listChanged chan struct{}, what string) {
	t.Helper()
	select {
	case <-listChanged:
	case <-time.After(time.Second):
		t.Fatalf("no resources/list_changed within 1 s of %s", what)
	}
}

// Issue 19.1: subscriptions are fed by the journal, so a write by another process (the
// CLI) reaches a subscriber within 1 s, and a file appearing or vanishing sends
// list_changed, at each revision.
func TestSubscriptionJournalFed(t *testing.T) {
	for _, v := range revisions {
		t.Run(v, func(t *testing.T) {
			dir := tempDir(t)
			writeFile(t, filepath.Join(dir, "watched.txt"), "v1\n")
			s := startServe(t, "--root", dir)
			c, updated, listChanged := notified(v)
			sub := s.connect(t, c)
			if _, err := sub.ListResources(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			uri := fileURI(filepath.Join(dir, "watched.txt"))
			if err := sub.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(llmfsBinary(t), "write", "--root", dir, "watched.txt", "v2\n").CombinedOutput()
			if err != nil {
				t.Fatalf("llmfs write: %v %s", err, out)
			}
			waitUpdate(t, updated, uri, "a write by the CLI")
			res, err := sub.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			if err != nil || res.Contents[0].Text != "v2\n" {
				t.Errorf("read after the update: %+v, %v", res, err)
			}
			// A new file, by another MCP client: list_changed; its removal: again.
			for len(listChanged) > 0 {
				<-listChanged
			}
			writer := s.connect(t, nil)
			ok(t, writer, "file_write", `{"path":"new.txt","content":"n\n"}`)
			waitListChanged(t, listChanged, "a new file")
			ok(t, writer, "file_delete", `{"path":"new.txt"}`)
			waitListChanged(t, listChanged, "a removal")
			// Moving a subscribed file away updates it (it is gone) and changes the list.
			writeFile(t, filepath.Join(dir, "d", "f.txt"), "f\n")
			furi := fileURI(filepath.Join(dir, "d", "f.txt"))
			if err := sub.Subscribe(context.Background(), &mcp.SubscribeParams{URI: furi}); err != nil {
				t.Fatal(err)
			}
			for len(listChanged) > 0 {
				<-listChanged
			}
			ok(t, writer, "file_move", `{"source":"d/f.txt","destination":"e.txt"}`)
			waitUpdate(t, updated, furi, "a move")
			waitListChanged(t, listChanged, "a move")
		})
	}
}

// Issue 19.1: on a fleet of replicas over one PostgreSQL database, a subscriber on one
// replica (2026-07-28, subscriptions/listen) hears of a write made through another
// within 1 s, and of a new file by list_changed.
func TestFleetSubscriptionAcrossReplicas(t *testing.T) {
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, 1)
	secret, _ := newToken(t, db, ids[0], llmfs.Full)
	replicas := startFleet(t, dsn, 2)
	c, updated, listChanged := notified("2026-07-28")
	sub := connectFleet(t, replicas[0].base+ids[0], bearer{secret, http.DefaultTransport}, c)
	writer := connectFleet(t, replicas[1].base+ids[0], bearer{secret, http.DefaultTransport}, nil)
	ok(t, writer, "file_write", `{"path":"/w.txt","content":"1"}`)
	uri := "file:///w.txt"
	if err := sub.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	ok(t, writer, "file_write", `{"path":"/w.txt","content":"2"}`)
	waitUpdate(t, updated, uri, "a write through another replica")
	ok(t, writer, "file_write", `{"path":"/other.txt","content":"o"}`)
	waitListChanged(t, listChanged, "a new file through another replica")
}
