//go:build !js && !wasip1

package llmfs_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// crashEnv tells the test binary, started again by TestJournalCrash, to be the writer it
// kills: "osdir:DIR" or "sqlite:FILE".
const crashEnv = "LLMFS_JOURNAL_CRASH_CHILD"

// openCrash opens the workspace a crash test writes to.
func openCrash(t *testing.T, target string) *llmfs.Workspace {
	kind, where, _ := cutColon(target)
	if kind == "osdir" {
		w, err := host.Open(&llmfs.Options{Root: where})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	s, err := sqlstore.OpenDSN(bg, target, "crash", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return llmfs.New(s, nil)
}

func cutColon(s string) (string, string, bool) {
	for i := range s {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// crashCacheEnv passes the parent's cache directory to the writer, whose TestMain gives
// it a fresh one otherwise: a host directory's journal lives there, and the parent must
// read the journal the writer wrote.
const crashCacheEnv = "LLMFS_JOURNAL_CRASH_CACHE"

// TestJournalCrashChild is the writer: 1,000 journaled changes, until it is killed. It
// says "ready" on stdout once its first change is recorded.
func TestJournalCrashChild(t *testing.T) {
	target := os.Getenv(crashEnv)
	if target == "" {
		t.Skip("run by TestJournalCrash")
	}
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv(crashCacheEnv))
	w := openCrash(t, target)
	for i := range 1000 {
		if i == 1 {
			os.Stdout.WriteString("ready\n")
		}
		p := fmt.Sprintf("f%d.txt", i%5)
		switch i % 10 {
		case 9:
			w.Delete(bg, p)
		case 7:
			w.Move(bg, p, fmt.Sprintf("m%d.txt", i%3))
		default:
			if _, err := w.Write(bg, p, fmt.Sprintf("change %d\n", i), llmfs.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestJournalCrash: issue 14.3, kill -9 during journaled writes on osdir and SQLite, and
// the files and the journal agree: every path holds what its newest landed change left.
func TestJournalCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	for _, kind := range []string{"osdir", "sqlite"} {
		t.Run(kind, func(t *testing.T) {
			for round := range 3 {
				target := "osdir:" + t.TempDir()
				if kind == "sqlite" {
					target = "sqlite:" + filepath.Join(t.TempDir(), "crash.db")
				}
				cmd := exec.Command(os.Args[0], "-test.run=^TestJournalCrashChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), crashEnv+"="+target, crashCacheEnv+"="+cache)
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// Issue 14.3: the writer journals where this test looks (a host directory's
				// journal is under the cache directory), and it is killed only once it has
				// recorded a change, so there is something to check.
				ready := make([]byte, 6)
				if _, err := io.ReadFull(out, ready); err != nil || string(ready) != "ready\n" {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("writer did not get ready: %q, %v", ready, err)
				}
				// Kill it somewhere in the middle of its writes (where is not asserted).
				time.Sleep(time.Duration(rand.IntN(300)+200*round) * time.Millisecond)
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()
				if n := checkAgree(t, openCrash(t, target)); n == 0 {
					t.Errorf("round %d: no change in the journal, though the writer had recorded one", round)
				}
			}
		})
	}
}

// checkAgree checks that every path the journal names holds what its newest committed
// change left, and that opening settled every pending change. It returns the number of
// changes in the journal.
func checkAgree(t *testing.T, w *llmfs.Workspace) int {
	t.Helper()
	cs, err := w.History().List(bg, llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Log("killed before any change")
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if c.State == store.Pending || c.State == store.Diverged {
			t.Errorf("change %d (%s %s) is %s after reopening", c.ID, c.Op, c.Path, c.State)
		}
		if c.State != store.Committed || seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		now, _, err := store.Snapshot(bg, w.Store(), storeName(w.Paths().Rel(c.Path)), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !now.Equal(c.After) {
			t.Errorf("%s holds %+v, but its newest change %d (%s) left %+v", c.Path, now, c.ID, c.Op, c.After)
		}
	}
	t.Logf("%d changes recorded", len(cs))
	return len(cs)
}
