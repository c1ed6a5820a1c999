package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store"
)

// RunJournal runs the conformance suite of [store.Journaler] on stores that new makes, each
// empty and with an empty journal.
func RunJournal(t *testing.T, new func(t *testing.T) store.Journaler) {
	t.Run("Empty", func(t *testing.T) { journalEmpty(t, new(t)) })
	t.Run("Record", func(t *testing.T) { journalRecord(t, new(t)) })
	t.Run("Drop", func(t *testing.T) { journalDrop(t, new(t)) })
	t.Run("FailAgrees", func(t *testing.T) { journalFailAgrees(t, new(t)) })
	t.Run("Checkpoints", func(t *testing.T) { journalCheckpoints(t, new(t)) })
	t.Run("Wait", func(t *testing.T) { journalWait(t, new(t)) })
	t.Run("Concurrent", func(t *testing.T) { journalConcurrent(t, new(t)) })
	t.Run("Prune", func(t *testing.T) { journalPrune(t, new(t)) })
	t.Run("LargeBlob", func(t *testing.T) { journalLargeBlob(t, new(t)) })
}

// writeChange writes data to name through tx and records it.
func writeChange(ctx context.Context, tx store.JournalTx, op, name string, data []byte) (*store.Change, error) {
	before := store.Version{Kind: store.Absent}
	if f, err := tx.Open(ctx, name); err == nil {
		b, err := readAll(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		before = store.FileVersion(b)
	}
	c := &store.Change{Op: op, Path: name, Before: before, After: store.FileVersion(data)}
	if err := tx.Add(ctx, []*store.Change{c}, [][]byte{data}); err != nil {
		return nil, err
	}
	_, err := tx.WriteFile(ctx, name, strings.NewReader(string(data)), store.WriteOptions{})
	if serr := tx.Settle(ctx, []*store.Change{c}, err == nil); serr != nil && err == nil {
		err = serr
	}
	return c, err
}

func readAll(f fs.File) ([]byte, error) {
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return b, nil
			}
			return b, err
		}
	}
}

func journalEmpty(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	if id, err := j.Last(ctx); err != nil || id != 0 {
		t.Errorf("Last() = %d, %v; want 0, nil", id, err)
	}
	if cs, err := j.Changes(ctx, store.ChangeFilter{}); err != nil || len(cs) != 0 {
		t.Errorf("Changes() = %v, %v; want none", cs, err)
	}
	if _, err := j.Change(ctx, 1); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Change(1) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := j.Blob(ctx, store.Hash([]byte("never stored "+time.Now().String()))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Blob(missing) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := j.Checkpoint(ctx, "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Checkpoint(missing) error = %v, want fs.ErrNotExist", err)
	}
}

func journalRecord(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	start := time.Now().Add(-time.Second)
	var first *store.Change
	err := j.Apply(ctx, "alice", func(tx store.JournalTx) error {
		var err error
		first, err = writeChange(ctx, tx, "write", "a.txt", []byte("one\n"))
		return err
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if first.ID != 1 || first.Set != 1 || first.Actor != "alice" {
		t.Errorf("first change = %+v, want ID 1, Set 1, Actor alice", first)
	}
	var second []*store.Change
	err = j.Apply(ctx, "bob", func(tx store.JournalTx) error {
		d := &store.Change{Op: "mkdir", Path: "d", Before: store.Version{Kind: store.Absent}, After: store.Version{Kind: store.Dir}}
		if err := tx.Add(ctx, []*store.Change{d}, nil); err != nil {
			return err
		}
		err := tx.Mkdir(ctx, "d")
		if err := tx.Settle(ctx, []*store.Change{d}, err == nil); err != nil {
			return err
		}
		if err != nil {
			return err
		}
		c, err := writeChange(ctx, tx, "write", "d/b.txt", []byte("two\n"))
		second = []*store.Change{d, c}
		if err != nil {
			return err
		}
		o, err := writeChange(ctx, tx, "edit", "a.txt", []byte("one!\n"))
		second = append(second, o)
		return err
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if second[0].Set != second[0].ID || second[1].Set != second[0].ID || second[2].Set != second[0].ID {
		t.Errorf("set of the second change set = %d, %d, %d; want %d", second[0].Set, second[1].Set, second[2].Set, second[0].ID)
	}
	if !(first.ID < second[0].ID && second[0].ID < second[1].ID && second[1].ID < second[2].ID) {
		t.Errorf("IDs not increasing: %d, %d, %d, %d", first.ID, second[0].ID, second[1].ID, second[2].ID)
	}
	all, err := j.Changes(ctx, store.ChangeFilter{})
	if err != nil || len(all) != 4 {
		t.Fatalf("Changes() = %d changes, %v; want 4", len(all), err)
	}
	for i, c := range all {
		if c.State != store.Committed {
			t.Errorf("change %d state %q, want committed", c.ID, c.State)
		}
		if c.Time.Before(start) || c.Time.After(time.Now().Add(time.Second)) {
			t.Errorf("change %d time %v, not now", c.ID, c.Time)
		}
		if i > 0 && c.ID >= all[i-1].ID {
			t.Errorf("Changes not newest first: %d after %d", c.ID, all[i-1].ID)
		}
	}
	if got := all[0]; got.Path != "a.txt" || got.Op != "edit" || got.Actor != "bob" ||
		!got.Before.Equal(store.FileVersion([]byte("one\n"))) || !got.After.Equal(store.FileVersion([]byte("one!\n"))) {
		t.Errorf("newest change = %+v", got)
	}
	if got := all[2]; got.Path != "d" || got.Before.Kind != store.Absent || got.After.Kind != store.Dir {
		t.Errorf("mkdir change = %+v", got)
	}
	one, err := j.Change(ctx, second[1].ID)
	if err != nil || one.Path != "d/b.txt" || one.Actor != "bob" || one.Set != second[0].ID {
		t.Errorf("Change(%d) = %+v, %v", second[1].ID, one, err)
	}
	for _, data := range []string{"one\n", "two\n", "one!\n"} {
		b, err := j.Blob(ctx, store.Hash([]byte(data)))
		if err != nil || string(b) != data {
			t.Errorf("Blob(%q) = %q, %v", data, b, err)
		}
	}
	type test struct {
		f    store.ChangeFilter
		want []int64
	}
	ids := func(cs ...*store.Change) []int64 {
		var out []int64
		for i := len(cs) - 1; i >= 0; i-- {
			out = append(out, cs[i].ID)
		}
		return out
	}
	for _, tc := range []test{
		{store.ChangeFilter{Path: "d"}, ids(second[0], second[1])},
		{store.ChangeFilter{Path: "a.txt"}, ids(first, second[2])},
		{store.ChangeFilter{Path: "a"}, nil},
		{store.ChangeFilter{Path: "."}, ids(first, second[0], second[1], second[2])},
		{store.ChangeFilter{Actor: "alice"}, ids(first)},
		{store.ChangeFilter{Limit: 2}, ids(second[1], second[2])},
		{store.ChangeFilter{Set: second[0].ID}, ids(second[0], second[1], second[2])},
		{store.ChangeFilter{After: first.ID, Upto: second[1].ID}, ids(second[0], second[1])},
		{store.ChangeFilter{Since: time.Now().Add(time.Hour)}, nil},
		{store.ChangeFilter{Path: "d", Limit: 1}, ids(second[1])},
	} {
		got, err := j.Changes(ctx, tc.f)
		if err != nil {
			t.Errorf("Changes(%+v): %v", tc.f, err)
			continue
		}
		var gotIDs []int64
		for _, c := range got {
			gotIDs = append(gotIDs, c.ID)
		}
		if fmt.Sprint(gotIDs) != fmt.Sprint(tc.want) {
			t.Errorf("Changes(%+v) = %v, want %v", tc.f, gotIDs, tc.want)
		}
	}
	if id, err := j.Last(ctx); err != nil || id != second[2].ID {
		t.Errorf("Last() = %d, %v; want %d", id, err, second[2].ID)
	}
}

// journalDrop: a change that did not land leaves no entry, and its ID is not reused.
func journalDrop(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	var dropped *store.Change
	err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
		dropped = &store.Change{Op: "write", Path: "x", Before: store.Version{Kind: store.Absent}, After: store.FileVersion([]byte("x"))}
		if err := tx.Add(ctx, []*store.Change{dropped}, [][]byte{[]byte("x")}); err != nil {
			return err
		}
		return tx.Settle(ctx, []*store.Change{dropped}, false)
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if cs, _ := j.Changes(ctx, store.ChangeFilter{}); len(cs) != 0 {
		t.Errorf("Changes after a dropped change = %+v, want none", cs)
	}
	var next *store.Change
	err = j.Apply(ctx, "a", func(tx store.JournalTx) error {
		var err error
		next, err = writeChange(ctx, tx, "write", "y", []byte("y"))
		return err
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if next.ID <= dropped.ID {
		t.Errorf("ID %d reused after dropping %d", next.ID, dropped.ID)
	}
}

// journalFailAgrees: when fn fails after a change landed, the files and the journal agree:
// both keep it (a store without transactions), or neither does (SQL).
func journalFailAgrees(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	boom := errors.New("boom")
	err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
		if _, err := writeChange(ctx, tx, "write", "f.txt", []byte("f")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Apply error = %v, want fn's", err)
	}
	_, serr := s.Stat(ctx, "f.txt")
	cs, err := j.Changes(ctx, store.ChangeFilter{Path: "f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if (serr == nil) != (len(cs) == 1) {
		t.Errorf("after a failed change set: file stat error %v, %d journal entries; want both or neither", serr, len(cs))
	}
}

func journalCheckpoints(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	if err := j.SetCheckpoint(ctx, "start", 0); err != nil {
		t.Fatal(err)
	}
	if err := j.SetCheckpoint(ctx, "later", 5); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // a later time, even on a coarse clock (js/wasm)
	if err := j.SetCheckpoint(ctx, "start", 2); err != nil {
		t.Fatal(err)
	}
	c, err := j.Checkpoint(ctx, "start")
	if err != nil || c.ID != 2 || c.Name != "start" || c.Time.IsZero() {
		t.Errorf("Checkpoint(start) = %+v, %v; want ID 2 (replaced)", c, err)
	}
	all, err := j.Checkpoints(ctx)
	if err != nil || len(all) != 2 {
		t.Fatalf("Checkpoints() = %+v, %v; want 2", all, err)
	}
	if all[0].Name != "start" {
		t.Errorf("Checkpoints()[0] = %q, want the newest, start", all[0].Name)
	}
}

func journalWait(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	if err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
		_, err := writeChange(ctx, tx, "write", "w", []byte("1"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := j.Wait(ctx, 0); err != nil {
		t.Errorf("Wait(0) with a change recorded: %v", err)
	}
	last, _ := j.Last(ctx)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := j.Wait(short, last); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait(last) with nothing new = %v, want the context's error", err)
	}
	done := make(chan error, 1)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		done <- j.Wait(wctx, last)
	}()
	if err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
		_, err := writeChange(ctx, tx, "write", "w", []byte("2"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Wait woke with %v, want nil", err)
	}
}

func journalConcurrent(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	const n, per = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, n*per)
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				errs <- j.Apply(ctx, fmt.Sprint("g", g), func(tx store.JournalTx) error {
					_, err := writeChange(ctx, tx, "write", fmt.Sprintf("c%d", g), []byte(fmt.Sprint(i)))
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	all, err := j.Changes(ctx, store.ChangeFilter{})
	if err != nil || len(all) != n*per {
		t.Fatalf("Changes() = %d, %v; want %d", len(all), err, n*per)
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID >= all[i-1].ID {
			t.Errorf("IDs not unique and ordered: %d after %d", all[i].ID, all[i-1].ID)
		}
	}
	// Each path's entries chain: every change's before is the after of the one before it.
	for g := range n {
		cs, _ := j.Changes(ctx, store.ChangeFilter{Path: fmt.Sprintf("c%d", g)})
		for i := 0; i+1 < len(cs); i++ {
			if !cs[i].Before.Equal(cs[i+1].After) {
				t.Errorf("c%d: change %d's before %+v is not change %d's after %+v", g, cs[i].ID, cs[i].Before, cs[i+1].ID, cs[i+1].After)
			}
		}
	}
}

// journalPrune: retention forgets whole change sets, oldest first, the checkpoints before
// them and the content nothing refers to; IDs still never repeat.
func journalPrune(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	unique := time.Now().Format(time.RFC3339Nano)
	var ids []int64
	for i := range 3 {
		var c *store.Change
		err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
			var err error
			c, err = writeChange(ctx, tx, "write", fmt.Sprintf("p%d", i), []byte(fmt.Sprintf("%d %s %s", i, unique, strings.Repeat("x", 100))))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID) // set by the time Apply returns
	}
	if err := j.SetCheckpoint(ctx, "old", ids[0]-1); err != nil {
		t.Fatal(err)
	}
	if err := j.SetCheckpoint(ctx, "kept", ids[1]); err != nil {
		t.Fatal(err)
	}
	if n, err := j.Prune(ctx, store.Retention{}); err != nil || n != 0 {
		t.Errorf("Prune(no bounds) = %d, %v; want 0", n, err)
	}
	// Room for two contents and a half: the oldest change goes. Its content goes too once no
	// file holds it either (a SQL store may keep a journaled file's content once, with the
	// journal's): p0 is removed outside the journal.
	if err := s.Remove(ctx, "p0"); err != nil {
		t.Fatal(err)
	}
	size := int64(len(fmt.Sprintf("0 %s %s", unique, strings.Repeat("x", 100))))
	n, err := j.Prune(ctx, store.Retention{MaxBytes: 2*size + size/2})
	if err != nil || n != 1 {
		t.Fatalf("Prune(2.5 contents) = %d, %v; want 1", n, err)
	}
	cs, _ := j.Changes(ctx, store.ChangeFilter{})
	if len(cs) != 2 || cs[1].ID != ids[1] {
		t.Errorf("after pruning: %d changes, want the newest 2", len(cs))
	}
	gone := fmt.Sprintf("0 %s %s", unique, strings.Repeat("x", 100))
	if _, err := j.Blob(ctx, store.Hash([]byte(gone))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("content of the pruned change: %v, want fs.ErrNotExist", err)
	}
	if _, err := j.Checkpoint(ctx, "old"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("checkpoint before the pruned change kept: %v", err)
	}
	if _, err := j.Checkpoint(ctx, "kept"); err != nil {
		t.Errorf("checkpoint after it: %v", err)
	}
	if n, err := j.Prune(ctx, store.Retention{MaxAge: time.Nanosecond}); err != nil || n != 2 {
		t.Errorf("Prune(1ns) = %d, %v; want 2", n, err)
	}
	var next *store.Change
	if err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
		var err error
		next, err = writeChange(ctx, tx, "write", "q", []byte("q"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if next.ID <= ids[2] {
		t.Errorf("ID %d after pruning reuses one (last was %d)", next.ID, ids[2])
	}
}

// journalLargeBlob: content of several MiB (a store may keep it in parts) is recorded, read
// back byte for byte, shared by a second change with the same content, and gone once
// pruned, while a smaller content recorded beside it stays whole.
func journalLargeBlob(t *testing.T, s store.Journaler) {
	ctx := context.Background()
	j := s.Journal()
	big := make([]byte, 5<<20+123)
	for i := range big {
		big[i] = byte('a' + i*7919%26)
	}
	copy(big, time.Now().Format(time.RFC3339Nano)) // unique to this run, on a shared database
	small := []byte("small " + time.Now().Format(time.RFC3339Nano))
	for _, name := range []string{"big1", "big2"} {
		err := j.Apply(ctx, "a", func(tx store.JournalTx) error {
			if _, err := writeChange(ctx, tx, "write", name, big); err != nil {
				return err
			}
			_, err := writeChange(ctx, tx, "write", name+".small", small)
			return err
		})
		if err != nil {
			t.Fatalf("Apply(%s): %v", name, err)
		}
	}
	got, err := j.Blob(ctx, store.Hash(big))
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Blob(big) = %d bytes, %v; want the %d recorded", len(got), err, len(big))
	}
	if got, err := j.Blob(ctx, store.Hash(small)); err != nil || !bytes.Equal(got, small) {
		t.Errorf("Blob(small) = %q, %v", got, err)
	}
	for _, name := range []string{"big1", "big2", "big1.small", "big2.small"} {
		if err := s.Remove(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := j.Prune(ctx, store.Retention{MaxAge: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Blob(ctx, store.Hash(big)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Blob(big) after pruning every change: %v, want fs.ErrNotExist", err)
	}
}
