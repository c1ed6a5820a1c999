package llmfs

import (
	"fmt"
	"testing"
)

// TestReadTrackerBounded: a session's tracker keeps at most its maximum of files, the
// ones recorded last, and its order of records does not grow with files recorded again
// and again (issue 34: the tracker's map only grew, by one entry per file ever read).
func TestReadTrackerBounded(t *testing.T) {
	const max = 100
	tr := newReadTrackerMax(max)
	for i := range 1000 {
		tr.record(fmt.Sprintf("f%d", i), seenOf([]byte{byte(i)}))
	}
	if files, records := tr.size(); files != max || records > 2*max+64 {
		t.Errorf("after 1000 files: %d files, %d records; want %d files, at most %d records", files, records, max, 2*max+64)
	}
	if _, ok := tr.lookup("f899"); ok {
		t.Error("f899, recorded long ago, is still tracked")
	}
	for i := 900; i < 1000; i++ {
		if s, ok := tr.lookup(fmt.Sprintf("f%d", i)); !ok || !s.holds([]byte{byte(i)}) {
			t.Fatalf("f%d, among the last recorded, is not tracked as read", i)
		}
	}
	// A file read again moves to the end: the next new file evicts another.
	tr.record("f900", seenOf([]byte("again")))
	tr.record("new", seenOf(nil))
	if _, ok := tr.lookup("f900"); !ok {
		t.Error("f900, recorded again, was evicted")
	}
	if _, ok := tr.lookup("f901"); ok {
		t.Error("f901, the oldest, was kept")
	}
	// One file read over and over keeps the order short.
	for range 10000 {
		tr.record("hot", seenOf(nil))
	}
	if files, records := tr.size(); files != max || records > 2*max+64 {
		t.Errorf("after rereading one file: %d files, %d records", files, records)
	}
	// Forgotten files leave with the next compaction.
	for i := 950; i < 1000; i++ {
		tr.forget(fmt.Sprintf("f%d", i))
	}
	if files, _ := tr.size(); files != max-50 {
		t.Errorf("after forgetting 50: %d files, want %d", files, max-50)
	}
}
