//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
)

// TestFleetLoad (issue 19.6) runs 3 replicas of `llmfs serve --store postgres://...` on
// one database with 200 workspaces, and 64 clients spread over the workspaces, each
// request of a client going to the next replica in turn (no sticky sessions). Each
// client writes, reads back, greps and lists its workspaces' files, and now and then
// sends its token to a workspace not its own. It fails on any error, on any
// cross-workspace access (a 403 is wanted; content of another workspace never), and
// logs p50/p99 latency and throughput. It runs only with LLMFS_FLEET_LOAD set to a
// duration (60s for BENCHMARKS.md):
//
//	LLMFS_TEST_POSTGRES=postgres://... LLMFS_FLEET_LOAD=60s go test ./mcpserver -run TestFleetLoad -v
func TestFleetLoad(t *testing.T) {
	spec := os.Getenv("LLMFS_FLEET_LOAD")
	if spec == "" {
		t.Skip("set LLMFS_FLEET_LOAD to a duration (e.g. 60s) to run the fleet load test")
	}
	dur, err := time.ParseDuration(spec)
	if err != nil {
		t.Fatalf("LLMFS_FLEET_LOAD=%q: %v", spec, err)
	}
	const nWorkspaces, nClients, nReplicas = 200, 64, 3
	dsn := postgresDSN(t)
	db, ids := fleetDB(t, dsn, nWorkspaces)
	tokens := make([]string, nWorkspaces)
	for i, id := range ids {
		tokens[i], _ = newToken(t, db, id, llmfs.ReadWrite)
	}
	replicas := startFleet(t, dsn, nReplicas)

	var (
		calls, denied, failures atomic.Int64
		mu                      sync.Mutex
		lat                     []time.Duration
	)
	fail := func(format string, args ...any) {
		if failures.Add(1) <= 20 {
			t.Errorf(format, args...)
		}
	}
	// The clock starts once every client has connected its sessions.
	var connected sync.WaitGroup
	connected.Add(nClients)
	start := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for c := range nClients {
		wg.Go(func() {
			var mine []int // the workspaces of client c
			for w := c; w < nWorkspaces; w += nClients {
				mine = append(mine, w)
			}
			sessions := map[int]*mcp.ClientSession{}
			for _, w := range mine {
				cs := connectFleet(t, replicas[0].base+ids[w], newRoundRobin(replicas, tokens[w]), clientAt("2026-07-28"))
				sessions[w] = cs
			}
			connected.Done()
			<-start
			var local []time.Duration
			r := rand.New(rand.NewPCG(uint64(c), 19))
			for n := 0; ctx.Err() == nil; n++ {
				w := mine[n%len(mine)]
				cs := sessions[w]
				marker := fmt.Sprintf("%s-%d", ids[w], n)
				name := fmt.Sprintf("/f%d.txt", r.IntN(20))
				steps := []struct{ tool, args, want string }{
					{"file_write", fmt.Sprintf(`{"path":%q,"content":%q}`, name, marker+"\n"), ""},
					{"file_read", fmt.Sprintf(`{"path":%q}`, name), marker},
					{"file_grep", `{"pattern":"fleet-","path":"/","output_mode":"content"}`, ids[w]},
					{"directory_list", `{"path":"/"}`, ""},
				}
				for _, s := range steps {
					start := time.Now()
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: json.RawMessage(s.args)})
					if ctx.Err() != nil {
						break
					}
					local = append(local, time.Since(start))
					calls.Add(1)
					if err != nil || res.IsError {
						fail("client %d, %s on %s: %v %v", c, s.tool, ids[w], err, res)
						continue
					}
					body := text(res)
					if s.want != "" && !strings.Contains(body, s.want) {
						fail("client %d, %s on %s: %q lacks %q", c, s.tool, ids[w], body, s.want)
					}
					// Only this workspace's id may show: its files hold its own markers.
					if other := foreign(body, ids[w]); other != "" {
						fail("client %d on %s saw %q", c, ids[w], other)
					}
				}
				if n%3 == 2 && ctx.Err() == nil {
					// The token of w at another workspace: 403, nothing else.
					o := (w + 1 + r.IntN(nWorkspaces-1)) % nWorkspaces
					code, body := rpc(t, replicas[n%nReplicas].base+ids[o], tokens[w], "tools/call", `{"name":"file_read","arguments":{"path":"/f0.txt"}}`)
					denied.Add(1)
					if code != 403 || strings.Contains(body, "fleet-") {
						fail("client %d: token of %s at %s: %d %.200s", c, ids[w], ids[o], code, body)
					}
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		})
	}
	connected.Wait()
	began := time.Now()
	close(start)
	time.AfterFunc(dur, cancel)
	wg.Wait()
	dur = time.Since(began)
	slices.Sort(lat)
	if len(lat) == 0 {
		t.Fatal("no calls made")
	}
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	t.Logf("%d replicas, %d workspaces, %d clients, %v: %d calls (%.0f/s), p50 %v, p99 %v, max %v; %d cross-workspace attempts, all 403; %d failures",
		nReplicas, nWorkspaces, nClients, dur.Round(time.Second), calls.Load(), float64(calls.Load())/dur.Seconds(),
		pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), denied.Load(), failures.Load())
	if testing.Verbose() {
		t.Logf("machine: %d CPUs", runtime.NumCPU())
	}
}

// foreign returns the first workspace id of the load test other than own that text
// names, or "".
func foreign(text, own string) string {
	for rest := text; ; {
		i := strings.Index(rest, "fleet-")
		if i < 0 {
			return ""
		}
		rest = rest[i:]
		end := strings.IndexFunc(rest, func(r rune) bool {
			return !(r >= '0' && r <= '9' || r == '-' || r >= 'a' && r <= 'z')
		})
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		// A marker is the id, "-", and a counter: strip the counter.
		if k := strings.LastIndex(word, "-"); k > 0 && word != own && word[:k] != own {
			return word
		}
		rest = rest[end:]
	}
}
