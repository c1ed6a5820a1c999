//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/mcpserver"
)

// TestHTTPLoad runs 32 concurrent HTTP sessions against one server on loopback, each
// making a mix of calls, and checks that none fails and that goroutines and RSS are flat
// afterwards. By default each session makes 50 calls; LLMFS_LOAD=1 makes it the full
// 2,000 (64,000 calls in all). The server runs in this process so its goroutines can be
// counted; it is the real HTTP stack on a real socket.
func TestHTTPLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	const sessions = 32
	calls := 50
	if os.Getenv("LLMFS_LOAD") != "" {
		calls = 2000
	}
	dir := tempDir(t)
	for i := range 100 {
		writeFile(t, filepath.Join(dir, "data", fmt.Sprintf("f%03d.txt", i)), strings.Repeat("line of text\n", 20))
	}
	ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: true})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	const token = "load-token"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mcpserver.NewHTTPHandler(srv, &mcpserver.HTTPOptions{Token: token})}
	go hs.Serve(ln)
	defer hs.Close()
	url := "http://" + ln.Addr().String()

	transport := &http.Transport{MaxIdleConnsPerHost: sessions * 2}
	round := 0
	run := func(calls int) (time.Duration, error) {
		round++
		start := time.Now()
		errs := make(chan error, sessions)
		var wg sync.WaitGroup
		for s := range sessions {
			wg.Go(func() {
				if err := loadSession(url, token, transport, fmt.Sprintf("own/r%d-s%02d.txt", round, s), s, calls); err != nil {
					errs <- fmt.Errorf("session %d: %w", s, err)
				}
			})
		}
		wg.Wait()
		close(errs)
		transport.CloseIdleConnections()
		return time.Since(start), <-errs
	}

	// A warm-up round sets the baseline: pools, caches and the heap have grown by then.
	if _, err := run(20); err != nil {
		t.Fatal(err)
	}
	g0, rss0 := settle(t, 0)
	d, err := run(calls)
	if err != nil {
		t.Fatal(err)
	}
	g1, rss1 := settle(t, g0)
	total := sessions * calls
	t.Logf("%d sessions x %d calls = %d calls in %v (%.0f calls/s); goroutines %d -> %d; RSS %d -> %d MiB",
		sessions, calls, total, d.Round(time.Millisecond), float64(total)/d.Seconds(), g0, g1, rss0>>20, rss1>>20)
	if g1 > g0+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines grew from %d to %d:\n%s", g0, g1, buf[:runtime.Stack(buf, true)])
	}
	if rss1 > rss0+rss0/2+32<<20 {
		t.Errorf("RSS grew from %d to %d MiB", rss0>>20, rss1>>20)
	}
}

// loadSession connects one client and makes calls calls: reads, listings, and edits of its
// own new file own (read first, as the workspace requires).
func loadSession(url, token string, rt http.RoundTripper, own string, n, calls int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   url,
		HTTPClient: &http.Client{Transport: bearer{token, rt}},
	}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	if err := loadCall(ctx, cs, "file_write", `{"path":"`+own+`","content":"n=0\n"}`); err != nil {
		return err
	}
	for i := range calls {
		var name, args string
		switch i % 4 {
		case 0:
			name, args = "file_read", fmt.Sprintf(`{"path":"data/f%03d.txt","offset":2,"limit":5}`, (n*7+i)%100)
		case 1:
			name, args = "directory_list", `{"path":"data"}`
		case 2:
			name, args = "file_read", `{"path":"`+own+`"}`
		case 3:
			name, args = "file_edit", `{"path":"`+own+`","old_text":"n=`+strconv.Itoa(i-3)+`\n","new_text":"n=`+strconv.Itoa(i+1)+`\n"}`
		}
		if err := loadCall(ctx, cs, name, args); err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
	}
	return nil
}

func loadCall(ctx context.Context, cs *mcp.ClientSession, name, args string) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: rawJSON(args)})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if res.IsError {
		return fmt.Errorf("%s %s: %s", name, args, text(res))
	}
	return nil
}

func rawJSON(s string) any { return jsonRaw(s) }

type jsonRaw string

func (j jsonRaw) MarshalJSON() ([]byte, error) { return []byte(j), nil }

// settle waits for the goroutine count to come down to want (or 5 seconds), collects
// garbage, and returns the goroutine count and the resident set size.
func settle(t *testing.T, want int) (int, int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want && want > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	runtime.GC()
	return runtime.NumGoroutine(), rss(t)
}

// rss returns the resident set size of this process, from /proc.
func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}
