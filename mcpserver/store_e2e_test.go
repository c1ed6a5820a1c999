//go:build !js && !wasip1

package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// TestStoreServeProcesses runs two `llmfs serve` processes on one database and has clients,
// half on each, edit shared files in the rtc dialect: each edit reads the file, then
// replaces the client's own counter line with the next value. Read-before-edit makes the
// edit conditional on the file being as read, across both processes: a client that loses
// the race gets FILE_CHANGED and retries after reading again. At the end every counter
// equals its client's successful edits (no update lost), and every failure was
// FILE_CHANGED.
func TestStoreServeProcesses(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		sharedEdits(t, "sqlite:"+filepath.Join(t.TempDir(), "llmfs.db"), 8, 50)
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		dsn := os.Getenv("LLMFS_TEST_POSTGRES")
		if dsn == "" {
			t.Skip("LLMFS_TEST_POSTGRES is not set: set it to a PostgreSQL DSN (.ci/postgres.sh starts one and prints it) to run this test")
		}
		// About 15 s on 2 cores: 8,000 edits, twice as many lost races.
		sharedEdits(t, dsn, 16, 500)
	})
}

const sharedFiles = 4

func sharedEdits(t *testing.T, dsn string, clients, edits int) {
	ctx := context.Background()
	db, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id := fmt.Sprintf("shared-edits-%d", time.Now().UnixNano())
	if err := db.Create(ctx, id, sqlstore.Quota{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Remove(context.Background(), id) })
	s, err := db.Workspace(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	var initial strings.Builder
	for c := range clients {
		fmt.Fprintf(&initial, "c%02d 0\n", c)
	}
	for f := range sharedFiles {
		if _, err := s.WriteFile(ctx, fileName(f), strings.NewReader(initial.String()), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	var servers [2]*httpServer
	for i := range servers {
		servers[i] = startServe(t, "--store", dsn, "--workspace", id, "--dialect", "rtc", "--agent-md=false")
	}

	start := time.Now()
	type tally struct {
		done    [sharedFiles]int // successful edits per file
		changed int              // FILE_CHANGED answers
		err     error
	}
	tallies := make([]tally, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl := &tallies[c]
			srv := servers[c%2]
			cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
			defer cancel()
			cs, err := newClient().Connect(cctx, &mcp.StreamableClientTransport{
				Endpoint:   srv.url,
				HTTPClient: &http.Client{Transport: bearer{srv.token, http.DefaultTransport}},
			}, nil)
			if err != nil {
				tl.err = err
				return
			}
			defer cs.Close()
			for n := 0; n < edits; n++ {
				f := (c + n) % sharedFiles
				for {
					changed, err := editCounter(cctx, cs, f, c, tl.done[f])
					if err != nil {
						tl.err = fmt.Errorf("client %d, edit %d: %w", c, n, err)
						return
					}
					if !changed {
						tl.done[f]++
						break
					}
					tl.changed++
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	changed := 0
	for _, tl := range tallies {
		if tl.err != nil {
			t.Fatal(tl.err)
		}
		changed += tl.changed
	}
	// Every successful edit is in the files.
	for f := range sharedFiles {
		content := readStore(t, s, fileName(f))
		var want strings.Builder
		for c := range clients {
			fmt.Fprintf(&want, "c%02d %d\n", c, tallies[c].done[f])
		}
		if content != want.String() {
			t.Errorf("%s holds\n%s\nwant\n%s", fileName(f), content, want.String())
		}
	}
	total := clients * edits
	t.Logf("%d clients x %d edits through 2 processes: %d edits and %d FILE_CHANGED retries in %v (%.0f edits/s)",
		clients, edits, total, changed, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())
	if clients >= 8 && changed == 0 {
		t.Errorf("no client ever lost a race: the test did not exercise the compare-and-swap")
	}
}

func fileName(f int) string { return fmt.Sprintf("shared%d.txt", f) }

// codeRE finds the code of an error result: "CODE: message".
var codeRE = regexp.MustCompile(`^([A-Z_]+): `)

// editCounter reads file f, then adds one to client c's counter line, which must hold
// want: only c changes it. It reports whether the file changed between the read and the
// edit (FILE_CHANGED); any other failure is an error.
func editCounter(ctx context.Context, cs *mcp.ClientSession, f, c, want int) (changed bool, err error) {
	path := "/" + fileName(f)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": path}})
	if err != nil {
		return false, err
	}
	if res.IsError {
		return false, fmt.Errorf("read: %s", text(res))
	}
	prefix := fmt.Sprintf("c%02d ", c)
	got := -1
	for line := range strings.Lines(text(res)) { // the numbered lines, then a note
		// "     3\tc02 17\n" (a line number, a tab, the line)
		_, l, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if v, ok := strings.CutPrefix(l, prefix); ok {
			got, _ = strconv.Atoi(v)
		}
	}
	if got != want {
		return false, fmt.Errorf("read %s: counter %q is %d, want %d (an update was lost)\n%s", path, prefix, got, want, text(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{
		"path":       path,
		"old_string": fmt.Sprintf("%s%d\n", prefix, want),
		"new_string": fmt.Sprintf("%s%d\n", prefix, want+1),
	}})
	if err != nil {
		return false, err
	}
	if !res.IsError {
		return false, nil
	}
	if m := codeRE.FindStringSubmatch(text(res)); m != nil && m[1] == "FILE_CHANGED" {
		return true, nil
	}
	return false, fmt.Errorf("edit failed other than FILE_CHANGED: %s", text(res))
}

func readStore(t *testing.T, s store.Store, name string) string {
	t.Helper()
	f, err := s.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
