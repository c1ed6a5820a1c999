//go:build !js && !wasip1

package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// bigOutputTree writes files whose matching lines add up to several times outAhead, so
// that the workers must wait for the output to catch up.
func bigOutputTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	line := "match " + strings.Repeat("x", 90) + "\n"
	for d := range 8 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", d))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 20 {
			n := 200
			if f == 0 {
				n = 20000 // one file's output alone passes the bound
			}
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d.txt", f)), []byte(strings.Repeat(line, n)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestGrepFuncStreams checks that GrepFunc yields what Grep returns, in the same order,
// with offsets and head limits, when the output held ahead is bounded, and that a yield
// that stops ends the search without an error.
func TestGrepFuncStreams(t *testing.T) {
	s := hostStore(t, bigOutputTree(t))
	ctx := context.Background()
	for _, o := range []GrepOptions{
		{Pattern: "match", Mode: Content, LineNumbers: true, Threads: 4},
		{Pattern: "match", Mode: Content, Before: 1, Threads: 3},
		{Pattern: "match", Mode: Content, Offset: 30000, HeadLimit: 50000, Threads: 4},
		{Pattern: "match", Mode: Count, Threads: 2},
	} {
		one := o
		one.Threads = 1
		want, err := Grep(ctx, s, ".", one)
		if err != nil {
			t.Fatal(err)
		}
		var got []Entry
		res, err := GrepFunc(ctx, s, ".", o, func(e Entry) bool {
			got = append(got, e)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want.Entries) || res.Truncated != want.Truncated {
			t.Errorf("%+v: GrepFunc gave %d entries (truncated %v), Grep with one thread %d (%v)", o, len(got), res.Truncated, len(want.Entries), want.Truncated)
		}
		n := 0
		if _, err := GrepFunc(ctx, s, ".", o, func(e Entry) bool {
			n++
			return n < 100
		}); err != nil || n != 100 {
			t.Errorf("%+v: a yield stopping at 100 saw %d entries, err %v", o, n, err)
		}
	}
}

// TestByteGate checks the bound on the output held ahead: a take past the limit waits
// for a give, except for the batch the output awaits, and stop releases every waiter.
func TestByteGate(t *testing.T) {
	g := newByteGate(10)
	if !g.take(1, 8) {
		t.Fatal("first take refused")
	}
	if !g.take(0, 100) {
		t.Fatal("the awaited batch waited")
	}
	got := make(chan bool)
	go func() { got <- g.take(2, 5) }()
	select {
	case <-got:
		t.Fatal("a take past the limit did not wait")
	case <-time.After(20 * time.Millisecond):
	}
	g.give(108)
	if !<-got {
		t.Fatal("take refused after give")
	}
	go func() { got <- g.take(3, 100) }()
	g.stop()
	if <-got {
		t.Fatal("take after stop granted")
	}
}
