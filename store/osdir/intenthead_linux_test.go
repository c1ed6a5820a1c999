package osdir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// TestIntentHeadShared: two opens of one log (as two processes have) see one header
// through their mappings, so their appends number on from each other's.
func TestIntentHeadShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.intents")
	var logs [2]*intentLog
	for i := range logs {
		l, err := openIntentLog(path, func() (int64, error) { return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		defer l.close()
		if l.head == nil {
			t.Fatal("header not mapped")
		}
		logs[i] = l
	}
	for i := range 6 {
		r := &intentRecord{Changes: []*store.Change{{Op: "write", Path: "f"}}}
		var set int64
		if _, err := logs[i%2].add(r, &set); err != nil {
			t.Fatal(err)
		}
		if r.Changes[0].ID != int64(i+1) {
			t.Fatalf("append %d got ID %d", i, r.Changes[0].ID)
		}
	}
	if got := readLog(t, logs[0]); len(got) != 6 {
		t.Fatalf("%d records, want 6", len(got))
	}
}

// TestIntentHeadCut: a log cut below its header from outside makes an append fail with an
// error, not fault the process.
func TestIntentHeadCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.intents")
	l, err := openIntentLog(path, func() (int64, error) { return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	var set int64
	_, err = l.add(&intentRecord{Changes: []*store.Change{{Op: "write", Path: "f"}}}, &set)
	if !errors.Is(err, errHeaderGone) {
		t.Fatalf("append to a cut log: %v, want errHeaderGone", err)
	}
	// Opened again, the log has a header once more and takes appends.
	l2, err := openIntentLog(path, func() (int64, error) { return 7, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer l2.close()
	r := &intentRecord{Changes: []*store.Change{{Op: "write", Path: "f"}}}
	set = 0
	if _, err := l2.add(r, &set); err != nil || r.Changes[0].ID != 8 {
		t.Fatalf("append after reopening: ID %d, %v", r.Changes[0].ID, err)
	}
}
