//go:build !js && !wasip1

package search

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmfs/llmfs/store"
	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// countingStore counts the opens of a store that lists directories with content.
type countingStore struct {
	*sqlstore.Store
	opens atomic.Int64
}

func (c *countingStore) Open(ctx context.Context, name string) (fs.File, error) {
	c.opens.Add(1)
	return c.Store.Open(ctx, name)
}

// Issue 18.4: a grep of a database store opened every file, a query each. With the
// listing bringing small files' content, it opens none of them, and finds the same.
func TestGrepSQLContentListing(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(t.TempDir(), "db"), "ws", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 5 {
		d := fmt.Sprintf("d%d", i)
		if err := s.Mkdir(ctx, d); err != nil {
			t.Fatal(err)
		}
		for j := range 8 {
			body := strings.Repeat(fmt.Sprintf("line %d of %d\n", j, i), 50) + "needle\n"
			if _, err := s.WriteFile(ctx, fmt.Sprintf("%s/f%d.txt", d, j), strings.NewReader(body), store.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cs := &countingStore{Store: s}
	opts := GrepOptions{Pattern: "needle|of 3$", Mode: Content, LineNumbers: true, Threads: 2}
	got, err := Grep(ctx, cs, ".", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Grep(ctx, plainStore{s}, ".", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grep with content listing differs from grep opening each file:\n%+v\n%+v", got.Entries, want.Entries)
	}
	if len(got.Entries) != 40+5*8*50/5 {
		t.Errorf("%d entries", len(got.Entries))
	}
	if n := cs.opens.Load(); n != 0 {
		t.Errorf("grep opened %d files the listing brought", n)
	}
}
