//go:build unix

package osdir_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// appendEnv tells the test binary, started again by TestJournalProcessesAppend, to be one
// of the writers: "DIR NAME".
const appendEnv = "LLMFS_INTENT_APPEND_CHILD"

// appendCacheEnv passes the parent's cache directory, where the journal is, to a writer.
const appendCacheEnv = "LLMFS_INTENT_APPEND_CACHE"

const appendSets = 150 // change sets per writer, each of one or two changes

// TestJournalAppendChild is a writer: appendSets change sets to files named after it,
// every third one of two changes.
func TestJournalAppendChild(t *testing.T) {
	arg := os.Getenv(appendEnv)
	if arg == "" {
		t.Skip("run by TestJournalProcessesAppend")
	}
	t.Setenv("LLMFS_CACHE_DIR", os.Getenv(appendCacheEnv))
	dir, name, _ := strings.Cut(arg, " ")
	ctx := context.Background()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write := func(tx store.JournalTx, file, data string) error {
		before, _, err := store.Snapshot(ctx, tx, file, 1<<20)
		if err != nil {
			return err
		}
		c := &store.Change{Op: "write", Path: file, Before: before, After: store.FileVersion([]byte(data))}
		if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte(data)}); err != nil {
			return err
		}
		_, err = tx.WriteFile(ctx, file, strings.NewReader(data), store.WriteOptions{})
		return tx.Settle(ctx, []*store.Change{c}, err == nil)
	}
	for i := range appendSets {
		err := s.Journal().Apply(ctx, name, func(tx store.JournalTx) error {
			if err := write(tx, fmt.Sprintf("%s-%d.txt", name, i%4), fmt.Sprintf("%s %d\n", name, i)); err != nil {
				return err
			}
			if i%3 != 0 {
				return nil
			}
			return write(tx, name+"-pair.txt", fmt.Sprintf("%s pair %d\n", name, i))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestJournalProcessesAppend: two processes journal changes to one directory at the same
// time, appending to the same intent log, while a third (this one) folds it again and
// again. Every change is in the journal once, numbered without a gap or a duplicate, in
// the order each process made them, committed, and the files hold what their newest
// change left.
func TestJournalProcessesAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	ctx := context.Background()
	dir := t.TempDir()
	s, err := osdir.New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names := []string{"alice", "bob"}
	done := make(chan error, len(names))
	for _, name := range names {
		cmd := exec.Command(os.Args[0], "-test.run=^TestJournalAppendChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), appendEnv+"="+dir+" "+name, appendCacheEnv+"="+cache)
		go func() {
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%s: %v\n%s", name, err, out)
			}
			done <- err
		}()
	}
	folds := 0
	for running := len(names); running > 0; {
		select {
		case err := <-done:
			running--
			if err != nil {
				t.Error(err)
			}
		default:
			if _, err := s.Journal().Last(ctx); err != nil { // folds the log
				t.Fatal(err)
			}
			folds++
			time.Sleep(time.Millisecond)
		}
	}
	cs, err := s.Journal().Changes(ctx, store.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want := len(names) * (appendSets + (appendSets+2)/3)
	if len(cs) != want {
		t.Fatalf("%d changes in the journal, want %d", len(cs), want)
	}
	newest := map[string]store.Change{}
	byID := map[int64]store.Change{}
	for _, c := range cs {
		byID[c.ID] = c
	}
	sets := map[int64]int{}
	for i, c := range cs {
		if c.ID != int64(len(cs)-i) {
			t.Fatalf("change %d of %d has ID %d: IDs are not 1 to %d without a gap", i, len(cs), c.ID, len(cs))
		}
		if c.State != store.Committed {
			t.Errorf("change %d is %s", c.ID, c.State)
		}
		if !strings.HasPrefix(c.Path, c.Actor+"-") {
			t.Errorf("change %d by %s to %s", c.ID, c.Actor, c.Path)
		}
		// A change set starts at its first change; another process's changes may come
		// between its changes.
		if first := byID[c.Set]; first.ID != first.Set || first.Actor != c.Actor {
			t.Errorf("change %d by %s in set %d, whose first change is %+v", c.ID, c.Actor, c.Set, first)
		}
		if sets[c.Set]++; sets[c.Set] > 2 {
			t.Errorf("set %d has more than its two changes", c.Set)
		}
		if _, ok := newest[c.Path]; !ok {
			newest[c.Path] = c
		}
	}
	for p, c := range newest {
		now, _, err := store.Snapshot(ctx, s, p, 1<<20)
		if err != nil || !now.Equal(c.After) {
			t.Errorf("%s holds %+v (%v), its newest change %d left %+v", p, now, err, c.ID, c.After)
		}
	}
	t.Logf("%d changes, %d folds while the writers ran", len(cs), folds)
}
