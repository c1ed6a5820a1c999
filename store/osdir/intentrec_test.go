//go:build !js && !wasip1

package osdir

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

func sampleRecord(i int) *intentRecord {
	data := []byte(fmt.Sprintf("content %d\n", i))
	return &intentRecord{
		Set: int64(i), Time: time.Unix(0, int64(i)*1e9), Actor: "mcp:s" + fmt.Sprint(i),
		Marks: []mark{{ID: int64(i - 1), State: store.Committed}},
		Changes: []*store.Change{{
			ID: int64(i), Set: int64(i), Time: time.Unix(0, int64(i)*1e9), Actor: "mcp:s" + fmt.Sprint(i), State: store.Pending,
			Op: "write", Path: fmt.Sprintf("d/f%d.txt", i), Other: "",
			Before: store.Version{Kind: store.Absent}, After: store.FileVersion(data),
			Lines: store.Lines{Added: 1, Counted: true},
		}},
		Blobs: [][]byte{data},
	}
}

func scanAll(data []byte) ([]*intentRecord, error) {
	var out []*intentRecord
	_, err := scanRecords(data, func(r *intentRecord) { out = append(out, r) })
	return out, err
}

func TestIntentRecordRoundTrip(t *testing.T) {
	var b []byte
	var want []*intentRecord
	for i := 1; i <= 3; i++ {
		r := sampleRecord(i)
		want = append(want, r)
		b = appendRecord(b, r)
	}
	got, err := scanAll(b)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("scan = %+v (%v), want %+v", got, err, want)
	}
}

// TestIntentRecordV1: a record an older llmfs wrote (magic LJR1, no line counts) still
// decodes, its changes not counted, so a log it left is folded on open.
func TestIntentRecordV1(t *testing.T) {
	r := sampleRecord(1)
	r.Changes[0].Lines = store.Lines{}
	// LJR1's payload is LJR2's without the two counts after each change's versions.
	b := appendRecord(nil, r)
	payload := b[recHead : len(b)-(1+1+len(r.Blobs[0]))-2]
	payload = append(append([]byte{}, payload...), b[len(b)-(1+1+len(r.Blobs[0])):]...)
	v1 := append([]byte(recMagicV1), make([]byte, 8)...)
	v1 = append(v1, payload...)
	binary.LittleEndian.PutUint32(v1[4:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(v1[8:], crc32.Checksum(payload, crcTable()))
	got, err := scanAll(v1)
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], r) {
		t.Fatalf("scan of an LJR1 record = %+v (%v), want %+v", got, err, r)
	}
}

// TestIntentRecordDamaged: the scan stops at a record that does not check (cut short or
// with damaged bytes) and reports it, keeping the records before it and never looking past.
func TestIntentRecordDamaged(t *testing.T) {
	one, two, three := appendRecord(nil, sampleRecord(1)), appendRecord(nil, sampleRecord(2)), appendRecord(nil, sampleRecord(3))
	for cut := 1; cut < len(two); cut++ {
		middle := append(append(append([]byte{}, one...), two[:cut]...), three...)
		got, err := scanAll(middle)
		if len(got) != 1 || got[0].Set != 1 || !errors.Is(err, errBadRecord) {
			t.Fatalf("record cut at %d: got %d records, %v", cut, len(got), err)
		}
	}
	damaged := append(append(append([]byte{}, one...), two...), three...)
	damaged[len(one)+recHead+3] ^= 0xff
	if got, err := scanAll(damaged); len(got) != 1 || !errors.Is(err, errBadRecord) {
		t.Fatalf("damaged record: got %d records, %v", len(got), err)
	}
}

// TestIntentRecordEmbedded: a damaged record whose blob holds intent-log bytes (a journaled
// copy of a log) hides records inside it; the fold must never take them: a marks-only record
// dropping a real change, a change numbered high. It keeps the record before, reports the
// damage and takes nothing after it.
func TestIntentRecordEmbedded(t *testing.T) {
	fake := appendRecord(nil, &intentRecord{Marks: []mark{{ID: 1, State: stateDropped}}})
	fake = appendRecord(fake, sampleRecord(1000))
	r2 := sampleRecord(2)
	r2.Blobs = [][]byte{append(append([]byte("copy of a cache file: "), fake...), "trailer"...)}
	two := appendRecord(nil, r2)
	log := append(appendRecord(nil, sampleRecord(1)), two[:len(two)-1]...)
	log = appendRecord(log, sampleRecord(3))
	f, err := batchOf(log)
	if !errors.Is(err, errBadRecord) {
		t.Errorf("batchOf error = %v, want the damaged record reported", err)
	}
	if len(f.Changes) != 1 || f.Changes[0].ID != 1 || len(f.Drops) != 0 {
		t.Fatalf("batchOf = %+v, want change 1 alone", f)
	}
}

func FuzzIntentRecords(f *testing.F) {
	f.Add(appendRecord(nil, sampleRecord(1)))
	f.Add(appendRecord(appendRecord(nil, sampleRecord(1)), sampleRecord(2))[5:])
	f.Add([]byte(recMagic + "\x05\x00\x00\x00\x00\x00\x00\x00abcde"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		scanAll(data) // must not panic, whatever the bytes
		if r, err := decodeRecord(data, true); err == nil {
			// What decodes encodes back to a record that decodes the same.
			again, n, err := nextRecord(appendRecord(nil, r))
			if err != nil || n == 0 || again.Actor != r.Actor || len(again.Changes) != len(r.Changes) || len(again.Blobs) != len(r.Blobs) {
				t.Fatalf("re-encoding %+v: %+v, %v", r, again, err)
			}
		}
	})
}

// TestJournalTornTail: bytes of a record a killed writer left half written at the end of
// the intent log are skipped when the journal is next opened; the changes before them are
// kept, and the changes after them are recorded and numbered on.
func TestJournalTornTail(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	write := func(s *Store, name, data string) {
		t.Helper()
		err := s.Journal().Apply(ctx, "t", func(tx store.JournalTx) error {
			before, _, err := store.Snapshot(ctx, tx, name, 1<<20)
			if err != nil {
				return err
			}
			c := &store.Change{Op: "write", Path: name, Before: before, After: store.FileVersion([]byte(data))}
			if err := tx.Add(ctx, []*store.Change{c}, [][]byte{[]byte(data)}); err != nil {
				return err
			}
			_, err = tx.WriteFile(ctx, name, strings.NewReader(data), store.WriteOptions{})
			return tx.Settle(ctx, []*store.Change{c}, err == nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	write(s, "a", "one")
	write(s, "b", "two")
	// What a writer killed mid-write leaves: a record cut short, past the records not
	// folded yet (no Close: the process died).
	log := s.journal.j.intents
	s.journal.j.flush()
	torn := appendRecord(nil, sampleRecord(99))
	fi, err := log.f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := log.f.WriteAt(torn[:len(torn)/2], fi.Size()); err != nil {
		t.Fatal(err)
	}
	s2, err := New(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	write(s2, "c", "three")
	cs, err := s2.Journal().Changes(ctx, store.ChangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%d %s %s", c.ID, c.Path, c.State))
	}
	if want := []string{"3 c committed", "2 b committed", "1 a committed"}; !reflect.DeepEqual(got, want) {
		t.Errorf("journal after a torn tail = %q, want %q", got, want)
	}
	p, _ := s2.JournalPath()
	if fi, err := os.Stat(strings.TrimSuffix(p, ".db") + ".intents"); err != nil || fi.Size() != logHead {
		t.Errorf("intent log after reading the journal: %v, %v; want only its header", fi, err)
	}
	s.journal.j.intents.close() // the "dead" process's handles
	s.journal.j.log.Close()
}
