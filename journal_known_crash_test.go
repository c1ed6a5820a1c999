//go:build linux

package llmfs_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
)

// knownCrashEnv tells the test binary, started again by TestJournalKnownCrash, to be the
// writer it kills: the directory it writes.
const knownCrashEnv = "LLMFS_JOURNAL_KNOWN_CHILD"

// TestJournalKnownCrashChild overwrites one file again and again until it is killed; each
// write's before snapshot is answered from what the write before it left known (no read).
func TestJournalKnownCrashChild(t *testing.T) {
	dir := os.Getenv(knownCrashEnv)
	if dir == "" {
		t.Skip("run by TestJournalKnownCrash")
	}
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv(crashCacheEnv))
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100000 {
		if i == 3 {
			os.Stdout.WriteString("ready\n")
		}
		if _, err := w.Write(bg, "f.txt", fmt.Sprintf("version %d\n", i), llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJournalKnownCrash: kill -9 while a file is overwritten with snapshots skipped, and
// the journal and the file agree on reopening: every committed change's before version is
// the after version of the one before it, the newest committed change's after version is
// what the file holds, and undoing it puts back the content before it.
func TestJournalKnownCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalKnownCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), knownCrashEnv+"="+dir, crashCacheEnv+"="+cache)
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
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := w.History().List(bg, llmfs.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(cs) // oldest first
	var committed []llmfs.Change
	for _, c := range cs {
		switch c.State {
		case store.Committed:
			committed = append(committed, c)
		case store.Pending, store.Diverged:
			t.Errorf("change %d is %s after reopening", c.ID, c.State)
		}
	}
	if len(committed) < 3 {
		t.Fatalf("%d committed changes, want at least 3", len(committed))
	}
	for i := 1; i < len(committed); i++ {
		if !committed[i].Before.Equal(committed[i-1].After) {
			t.Fatalf("change %d's before %+v is not change %d's after %+v", committed[i].ID, committed[i].Before, committed[i-1].ID, committed[i-1].After)
		}
	}
	last := committed[len(committed)-1]
	data, err := os.ReadFile(filepath.Join(dir, "f.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !store.FileVersion(data).Equal(last.After) {
		t.Fatalf("the file holds %q, not what change %d left", data, last.ID)
	}
	var prev []byte // the content the before version names: one of the writer's
	for i := range 100000 {
		if b := fmt.Appendf(nil, "version %d\n", i); store.FileVersion(b).Equal(last.Before) {
			prev = b
			break
		}
	}
	if prev == nil {
		t.Fatalf("change %d's before %+v is none of the writer's versions", last.ID, last.Before)
	}
	if _, err := w.History().Undo(bg, last.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "f.txt")); err != nil || string(got) != string(prev) {
		t.Fatalf("after undo the file holds %q (%v), want %q", got, err, prev)
	}
	t.Logf("%d committed changes, undo of %d put back %q", len(committed), last.ID, prev)
}
