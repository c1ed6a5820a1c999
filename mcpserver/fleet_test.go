//go:build !js && !wasip1

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/mcpserver/fleet"
	"github.com/llmfs/llmfs/store/mem"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// postgresDSN returns the test database's DSN, or skips the test.
func postgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("LLMFS_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("LLMFS_TEST_POSTGRES is not set: set it to a PostgreSQL DSN (.ci/postgres.sh starts one and prints it) to run this test")
	}
	return dsn
}

var fleetSeq atomic.Int64

// fleetDB connects to dsn and creates n workspaces with names unique to this run,
// removed at cleanup.
func fleetDB(t testing.TB, dsn string, n int) (*sqlstore.DB, []string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var ids []string
	for i := range n {
		id := fmt.Sprintf("fleet-%d-%d-%d", os.Getpid(), fleetSeq.Add(1), i)
		if err := db.Create(ctx, id, sqlstore.Quota{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Remove(context.Background(), id) })
		ids = append(ids, id)
	}
	return db, ids
}

func newToken(t testing.TB, db *sqlstore.DB, id string, mode llmfs.Mode) (string, string) {
	t.Helper()
	secret, tok, err := db.CreateToken(context.Background(), id, string(mode), "test")
	if err != nil {
		t.Fatal(err)
	}
	return secret, tok.ID
}

// A replica is one `llmfs serve --store DSN` process serving every workspace.
type replica struct {
	base string // http://127.0.0.1:PORT/mcp/
	cmd  *exec.Cmd
}

// startFleet starts n replicas on dsn.
func startFleet(t testing.TB, dsn string, n int, args ...string) []*replica {
	t.Helper()
	var out []*replica
	for range n {
		cmd := exec.Command(llmfsBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--store", dsn}, args...)...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		urls := make(chan string, 1)
		go func() {
			re := regexp.MustCompile(`serving MCP at (http://\S+/mcp/)\{workspace\}`)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				if m := re.FindStringSubmatch(sc.Text()); m != nil {
					urls <- m[1]
				}
				if os.Getenv("LLMFS_TEST_LOG") != "" {
					fmt.Fprintln(os.Stderr, "serve:", sc.Text())
				}
			}
			done <- cmd.Wait()
		}()
		r := &replica{cmd: cmd}
		select {
		case r.base = <-urls:
		case err := <-done:
			t.Fatalf("llmfs serve --store exited: %v", err)
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("llmfs serve --store did not start")
		}
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
			}
		})
		out = append(out, r)
	}
	return out
}

// roundRobin sends each request to the next replica in turn, with a bearer token, and
// counts what each one got: a load balancer without sticky sessions.
type roundRobin struct {
	hosts []string
	token string
	next  atomic.Int64
	hits  []atomic.Int64
}

func newRoundRobin(replicas []*replica, token string) *roundRobin {
	rr := &roundRobin{token: token, hits: make([]atomic.Int64, len(replicas))}
	for _, r := range replicas {
		u, _ := url.Parse(r.base)
		rr.hosts = append(rr.hosts, u.Host)
	}
	return rr
}

func (rr *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	i := int(rr.next.Add(1)) % len(rr.hosts)
	rr.hits[i].Add(1)
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = rr.hosts[i], rr.hosts[i]
	r.Header.Set("Authorization", "Bearer "+rr.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectFleet(t testing.TB, endpoint string, rt http.RoundTripper, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if client == nil {
		client = newClient()
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: rt}}, sessionOptions(client))
	if err != nil {
		t.Fatalf("connecting to %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Issue 19.5: two replicas of `llmfs serve --store postgres://...` share the database;
// one client's requests alternate between them, with no sticky session, at every
// protocol revision, and each sees what the other wrote.
func TestFleetReplicasStateless(t *testing.T) {
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, 1)
	secret, _ := newToken(t, db, ids[0], llmfs.Full)
	replicas := startFleet(t, dsn, 2)
	for _, v := range revisions {
		t.Run(v, func(t *testing.T) {
			rr := newRoundRobin(replicas, secret)
			cs := connectFleet(t, replicas[0].base+ids[0], rr, clientAt(v))
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("negotiated %s, want %s", got, v)
			}
			for i := range 6 {
				name := fmt.Sprintf("/%s-%d.txt", v, i)
				ok(t, cs, "file_write", fmt.Sprintf(`{"path":%q,"content":"n%d\n"}`, name, i))
				got := ok(t, cs, "file_read", fmt.Sprintf(`{"path":%q}`, name))
				if got["content"] != fmt.Sprintf("n%d\n", i) {
					t.Fatalf("read back %q: %v", name, got)
				}
			}
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file:///" + v + "-0.txt"})
			if err != nil || res.Contents[0].Text != "n0\n" {
				t.Fatalf("resources/read: %+v, %v", res, err)
			}
			for i := range rr.hits {
				if rr.hits[i].Load() < 3 {
					t.Errorf("replica %d got %d requests; the client's requests should alternate", i, rr.hits[i].Load())
				}
			}
		})
	}
}

// rpc posts one JSON-RPC request to endpoint with token (none if empty) and returns the
// status and body.
func rpc(t testing.TB, endpoint, token, method, params string) (int, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
	req, err := http.NewRequest("POST", endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Issue 19.5: a token opens its own workspace only, in its own mode; a revoked,
// unknown or missing token gets 401 and one of another workspace 403, whether that
// workspace exists or not.
func TestFleetTokens(t *testing.T) {
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, 2)
	a, b := ids[0], ids[1]
	ro, _ := newToken(t, db, a, llmfs.ReadOnly)
	rw, rwID := newToken(t, db, a, llmfs.ReadWrite)
	base := startFleet(t, dsn, 1)[0].base
	ping := `{}`
	if code, _ := rpc(t, base+a, rw, "tools/list", ping); code != 200 {
		t.Fatalf("own workspace: %d", code)
	}
	for _, tc := range []struct {
		name, path, token string
		want              int
	}{
		{"no token", a, "", 401},
		{"unknown token", a, "llmfs_nosuchtoken_AAAAAAAAAAAAAAAAAAAAAAAAAA", 401},
		{"not a token", a, "hunter2", 401},
		{"other workspace", b, rw, 403},
		{"missing workspace", "no-such-" + a, rw, 403},
		{"no workspace", "", rw, 404},
		{"nested path", a + "/x", rw, 404},
		{"escaped slash", a + "%2F..%2F" + b, rw, 404},
		{"dot segments", a + "/../" + b, rw, 403}, // cleaned to b on the way: b, not a
	} {
		if code, body := rpc(t, base+tc.path, tc.token, "tools/list", ping); code != tc.want {
			t.Errorf("%s: status %d, want %d (%s)", tc.name, code, tc.want, body)
		}
	}
	// The mode: a read-only token lists no write tools and cannot write.
	cs := connectFleet(t, base+a, bearer{ro, http.DefaultTransport}, nil)
	tl, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		if tool.Name == "file_write" || tool.Name == "file_delete" {
			t.Errorf("a read-only token lists %s", tool.Name)
		}
	}
	res := call(t, cs, "file_write", `{"path":"/x.txt","content":"x"}`)
	if !res.IsError || !strings.HasPrefix(text(res), "PERMISSION_DENIED") {
		t.Errorf("file_write with a read-only token: %s", text(res))
	}
	// read-write: writes, but no delete.
	cw := connectFleet(t, base+a, bearer{rw, http.DefaultTransport}, nil)
	ok(t, cw, "file_write", `{"path":"/x.txt","content":"x"}`)
	// The journal names the token that made the change.
	st, err := db.Workspace(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := llmfs.New(st, nil).History().List(context.Background(), llmfs.HistoryFilter{Limit: 1})
	if err != nil || len(hist) != 1 || hist[0].Actor != "mcp:token-"+rwID {
		t.Errorf("the journal's newest change: %+v, %v; want actor mcp:token-%s", hist, err, rwID)
	}
	if res := call(t, cw, "file_delete", `{"path":"/x.txt"}`); !res.IsError || !strings.HasPrefix(text(res), "PERMISSION_DENIED") {
		t.Errorf("file_delete with a read-write token: %s", text(res))
	}
	// Revoked: 401 at once.
	if err := db.RevokeToken(context.Background(), a, rwID); err != nil {
		t.Fatal(err)
	}
	if code, _ := rpc(t, base+a, rw, "tools/list", ping); code != 401 {
		t.Errorf("revoked token: %d, want 401", code)
	}
}

// Issue 19.5: workspaces are opened lazily and at most --max-open stay open; an evicted
// one opens again on its next request.
func TestFleetMaxOpen(t *testing.T) {
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, 5)
	base := startFleet(t, dsn, 1, "--max-open", "2")[0].base
	var tokens []string
	for _, id := range ids {
		s, _ := newToken(t, db, id, llmfs.Full)
		tokens = append(tokens, s)
	}
	var wg sync.WaitGroup
	for round := range 3 {
		for i, id := range ids {
			wg.Go(func() {
				args := fmt.Sprintf(`{"name":"file_write","arguments":{"path":"/r%d.txt","content":"%s"}}`, round, id)
				if code, body := rpc(t, base+id, tokens[i], "tools/call", args); code != 200 || strings.Contains(body, `"isError":true`) {
					t.Errorf("write to %s: %d %s", id, code, body)
				}
			})
		}
		wg.Wait()
	}
	for i, id := range ids {
		code, body := rpc(t, base+id, tokens[i], "resources/read", `{"uri":"file:///r2.txt"}`)
		var msg struct {
			Result mcp.ReadResourceResult `json:"result"`
		}
		_, payload, _ := strings.Cut(body, "data: ")
		if code != 200 || json.Unmarshal([]byte(strings.TrimSpace(payload)), &msg) != nil || len(msg.Result.Contents) != 1 || msg.Result.Contents[0].Text != id {
			t.Errorf("read %s: %d %s", id, code, body)
		}
	}
}

// Issue 19.5: the fleet's cache of open workspaces is bounded, least recently used out
// first: 200 workspaces do not hold 200 of everything.
func TestFleetOpenBounded(t *testing.T) {
	var opens sync.Map // id -> *atomic.Int64
	h, err := fleet.NewHandler(&fleet.Options{
		Authorize: func(_ context.Context, token, _ string) (fleet.Grant, error) {
			id, ok := strings.CutPrefix(token, "t-")
			if !ok {
				return fleet.Grant{}, fleet.ErrUnauthorized
			}
			return fleet.Grant{Workspace: id, Mode: llmfs.Full}, nil
		},
		Open: func(_ context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error) {
			n, _ := opens.LoadOrStore(id, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
			return llmfs.New(mem.New(), &llmfs.Options{Mode: mode}), nil
		},
		MaxOpen: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, id := range []string{"a", "b", "a", "c", "a", "b"} {
		if code, body := rpc(t, srv.URL+"/mcp/"+id, "t-"+id, "tools/list", `{}`); code != 200 {
			t.Fatalf("%s: %d %s", id, code, body)
		}
	}
	// a stays (used most recently each time), b is evicted by c and opened again.
	for id, want := range map[string]int64{"a": 1, "b": 2, "c": 1} {
		n, _ := opens.Load(id)
		if got := n.(*atomic.Int64).Load(); got != want {
			t.Errorf("%s opened %d times, want %d", id, got, want)
		}
	}
}

// Issue 19.1 on a fleet: resources/subscribe, which would end with its stateless
// request, is refused with a message naming subscriptions/listen.
func TestFleetSubscribeRefused(t *testing.T) {
	h, err := fleet.NewHandler(&fleet.Options{
		Authorize: func(_ context.Context, token, _ string) (fleet.Grant, error) {
			return fleet.Grant{Workspace: "a", Mode: llmfs.ReadOnly}, nil
		},
		Open: func(_ context.Context, id string, mode llmfs.Mode) (*llmfs.Workspace, error) {
			return llmfs.New(mem.New(), &llmfs.Options{Mode: mode}), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	if code, body := rpc(t, srv.URL+"/mcp/a", "t", "resources/subscribe", `{"uri":"file:///x.txt"}`); code != 200 || !strings.Contains(body, "subscriptions/listen") {
		t.Errorf("resources/subscribe on a fleet: %d %s", code, body)
	}
}
