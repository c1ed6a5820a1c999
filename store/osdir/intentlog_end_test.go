//go:build !js && !wasip1

package osdir

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
)

func readLog(t *testing.T, l *intentLog) []*intentRecord {
	t.Helper()
	unlock, err := l.lock()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	data, err := l.read()
	if err != nil {
		t.Fatal(err)
	}
	got, err := scanAll(data)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestIntentLogPastEnd: a record written past the committed end (its writer killed before
// the header write) is never read, and the next append overwrites it, giving out its ID
// again: the killed writer's change was never made.
func TestIntentLogPastEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.intents")
	l, err := openIntentLog(path, func() (int64, error) { return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	add := func(name string) int64 {
		t.Helper()
		r := &intentRecord{Changes: []*store.Change{{Op: "write", Path: name}}}
		var set int64
		if _, err := l.add(r, &set); err != nil {
			t.Fatal(err)
		}
		return r.Changes[0].ID
	}
	if id := add("a"); id != 1 {
		t.Fatalf("first ID %d", id)
	}
	fi, _ := l.f.Stat()
	torn := appendRecord(nil, sampleRecord(2))
	torn = append(torn, torn...) // longer than the next record: a rest stays past the end
	if _, err := l.f.WriteAt(torn, fi.Size()); err != nil {
		t.Fatal(err)
	}
	if got := readLog(t, l); len(got) != 1 || got[0].Changes[0].Path != "a" {
		t.Fatalf("log with a record past its end: %+v", got)
	}
	if id := add("b"); id != 2 {
		t.Fatalf("ID after a discarded record: %d, want 2", id)
	}
	got := readLog(t, l)
	if len(got) != 2 || got[1].Changes[0].Path != "b" || got[1].Changes[0].ID != 2 {
		t.Fatalf("log after the next append: %+v", got)
	}
}

// TestIntentLogOldFormat: a log of the first format (16-byte header, no end) is migrated:
// its whole records are kept and numbering goes on above them.
func TestIntentLogOldFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.intents")
	old := make([]byte, oldHead)
	copy(old, oldMagic)
	binary.LittleEndian.PutUint64(old[8:], 8)
	old = appendRecord(old, sampleRecord(7))
	old = append(old, "torn"...)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := openIntentLog(path, func() (int64, error) { return 3, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if got := readLog(t, l); len(got) != 1 || got[0].Changes[0].ID != 7 {
		t.Fatalf("migrated log: %+v", got)
	}
	r := &intentRecord{Changes: []*store.Change{{Op: "write", Path: "n"}}}
	var set int64
	if _, err := l.add(r, &set); err != nil || r.Changes[0].ID != 8 {
		t.Fatalf("ID after migrating: %d, %v; want 8", r.Changes[0].ID, err)
	}
}
