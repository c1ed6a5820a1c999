//go:build unix

package osdir_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// tornEnv tells the test binary, started again by TestJournalKilledMidRecord, to be the
// writer it kills: the directory to write.
const tornEnv = "LLMFS_INTENT_TORN_CHILD"

// tornChunk is the size of the writer's files: each change's record carries the before and
// after content, 8 MiB, so that a kill lands in the middle of a record's write(2) often.
const tornChunk = 4 << 20

// TestJournalTornChild is the writer: journaled overwrites of large files until it is
// killed. It says "ready" on stdout once its first change is recorded.
func TestJournalTornChild(t *testing.T) {
	dir := os.Getenv(tornEnv)
	if dir == "" {
		t.Skip("run by TestJournalKilledMidRecord")
	}
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv(appendCacheEnv))
	ctx := context.Background()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if i == 1 {
			os.Stdout.WriteString("ready\n")
		}
		name := fmt.Sprintf("f%d", i%3)
		data := append([]byte(fmt.Sprintf("%d %d\n", os.Getpid(), i)), bytes.Repeat([]byte{'a' + byte(i%26)}, tornChunk)...)
		err := s.Journal().Apply(ctx, "writer", func(tx store.JournalTx) error {
			before, old, err := store.Snapshot(ctx, tx, name, 64<<20)
			if err != nil {
				return err
			}
			c := &store.Change{Op: "write", Path: name, Before: before, After: store.FileVersion(data)}
			blobs := [][]byte{data}
			if old != nil {
				blobs = append(blobs, old)
			}
			if err := tx.Add(ctx, []*store.Change{c}, blobs); err != nil {
				return err
			}
			_, err = tx.WriteFile(ctx, name, bytes.NewReader(data), store.WriteOptions{})
			return tx.Settle(ctx, []*store.Change{c}, err == nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestJournalKilledMidRecord: a writer of large changes is killed with SIGKILL, again and
// again on the same directory, often in the middle of writing a record to the intent log.
// Each time, the next open skips what is torn, and the files and the journal agree: no
// change is left pending, and every file holds what its newest committed change left.
func TestJournalKilledMidRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	ctx := context.Background()
	dir := t.TempDir()
	for round := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestJournalTornChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), tornEnv+"="+dir, appendCacheEnv+"="+cache)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make([]byte, 6)
		if _, err := io.ReadFull(out, ready); err != nil || string(ready) != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("writer did not get ready: %q, %v", ready, err)
		}
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		s, err := osdir.New(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.JournalPath()
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(strings.TrimSuffix(p, ".db") + ".intents"); err == nil {
			t.Logf("round %d: intent log of %d bytes left by the writer", round, fi.Size())
		}
		cs, err := s.Journal().Changes(ctx, store.ChangeFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			t.Fatalf("round %d: no change in the journal, though the writer had recorded one", round)
		}
		seen := map[string]bool{}
		for i, c := range cs {
			if i > 0 && c.ID >= cs[i-1].ID {
				t.Errorf("IDs not decreasing: %d after %d", c.ID, cs[i-1].ID)
			}
			if c.State == store.Pending || c.State == store.Diverged {
				t.Errorf("round %d: change %d is %s after reopening", round, c.ID, c.State)
			}
			if c.State != store.Committed || seen[c.Path] {
				continue
			}
			seen[c.Path] = true
			now, _, err := store.Snapshot(ctx, s, c.Path, 64<<20)
			if err != nil || !now.Equal(c.After) {
				t.Errorf("round %d: %s holds %+v (%v), its newest change %d left %+v", round, c.Path, now, err, c.ID, c.After)
			}
		}
		t.Logf("round %d: %d changes", round, len(cs))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
