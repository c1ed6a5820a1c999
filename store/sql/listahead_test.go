//go:build !js && !wasip1

package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
)

// aheadTree writes a tree of dirs directories, each with files small files and an empty
// subdirectory, plus a file of several chunks, and returns the directories in the order
// a walk lists them (parents first).
func aheadTree(t *testing.T, s *Store, dirs, files, size int) []string {
	t.Helper()
	order := []string{"."}
	for d := range dirs {
		dir := fmt.Sprintf("d%02d", d)
		if d%3 == 2 {
			dir = fmt.Sprintf("d%02d/n%02d", d-1, d) // nested in the one before
		}
		for _, m := range []string{dir, dir + "/empty"} {
			if err := s.Mkdir(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		order = append(order, dir, dir+"/empty")
		for f := range files {
			writeString(t, s, fmt.Sprintf("%s/f%02d", dir, f), strings.Repeat(fmt.Sprintf("%s %02d\n", dir, f), size/8), store.WriteOptions{})
		}
	}
	writeString(t, s, "d00/big", strings.Repeat("b", 2*ChunkSize+5), store.WriteOptions{})
	return order
}

// checkWalk lists each directory of order through a ContentWalk and checks it against
// ReadDir, content included, and returns how many entries came with their content.
func checkWalk(t *testing.T, s *Store, order []string) int {
	t.Helper()
	w := s.treeWalk()
	with := 0
	for _, dir := range order {
		plain, err := s.ReadDir(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.ReadDirContent(ctx, dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if len(got) != len(plain) {
			t.Fatalf("%s: %d entries, ReadDir %d", dir, len(got), len(plain))
		}
		for i, de := range got {
			if de.Name() != plain[i].Name() || de.Type() != plain[i].Type() {
				t.Fatalf("%s: entry %d is %s %v, ReadDir has %s %v", dir, i, de.Name(), de.Type(), plain[i].Name(), plain[i].Type())
			}
			ce, ok := de.(store.ContentEntry)
			if !ok {
				continue
			}
			with++
			want, err := fs.ReadFile(fsOf(s), path.Join(dir, de.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if string(ce.Content()) != string(want) {
				t.Fatalf("%s/%s: content differs", dir, de.Name())
			}
		}
	}
	return with
}

func fsOf(s *Store) fs.FS { return readFS{s} }

type readFS struct{ s *Store }

func (r readFS) Open(name string) (fs.File, error) { return r.s.Open(ctx, name) }

// A ContentWalk lists every directory as ReadDir does, with the content of its small
// files, whether its listing came ahead with an ancestor's or was queried when asked.
func TestContentWalkListsAsReadDir(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		order := aheadTree(t, s, 12, 5, 100)
		if with := checkWalk(t, s, order); with != 12*5 {
			t.Errorf("%d files came with their content, want %d", with, 12*5)
		}
		// A directory asked for twice, missing, or a file: as ReadDirContent says.
		w := s.treeWalk()
		if _, err := w.ReadDirContent(ctx, "nowhere"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing directory: %v", err)
		}
		if _, err := w.ReadDirContent(ctx, "d00/f00"); err == nil {
			t.Error("a file listed as a directory")
		}
	})
}

// Past the content budget, the listings that did not come whole are queried when asked,
// and every small file still comes with its content.
func TestContentWalkPastBudget(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := newWorkspace(t, b.connect(t), Quota{})
		files := listContentBudget / (40 << 10) / 6
		order := aheadTree(t, s, 9, files, 40<<10)
		if with := checkWalk(t, s, order); with != 9*files {
			t.Errorf("%d files came with their content, want %d", with, 9*files)
		}
	})
}

// Issue 40.2: a grep of a PostgreSQL workspace ran a listing query per directory, a round
// trip each. A walk of a tree of 40 directories and their 40 empty subdirectories now
// takes one query, however many directories it lists.
func TestContentWalkOneQuery(t *testing.T) {
	x, c := connectCounted(t)
	s := newWorkspace(t, x, Quota{})
	order := aheadTree(t, s, 40, 3, 100)
	if _, ok := s.ContentWalk().(*treeWalk); !ok {
		t.Error("ContentWalk on PostgreSQL lists directory by directory")
	}
	w := s.treeWalk()
	before := c.n.Load()
	for _, dir := range order {
		if _, err := w.ReadDirContent(ctx, dir); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.n.Load() - before; n > 2 {
		t.Errorf("listing %d directories took %d round trips, want at most 2", len(order), n)
	}
}

// The listings a walk never asks for (hidden or ignored directories) are held until the
// walk ends: once they hold a budget's worth, the walk brings no more ahead, so what it
// holds stays within two budgets whatever the tree.
func TestContentWalkHoldsBounded(t *testing.T) {
	s := newWorkspace(t, connectSQLite(t), Quota{})
	order := aheadTree(t, s, 24, walkBudget/(8<<10)*3/8, 8<<10) // 768 KiB a directory
	w := s.treeWalk()
	for _, dir := range order {
		if strings.Contains(dir, "/") {
			continue // the walk skips every directory below the top
		}
		if _, err := w.ReadDirContent(ctx, dir); err != nil {
			t.Fatal(err)
		}
		if w.bytes > 2*walkBudget {
			t.Fatalf("after %s the walk holds %d bytes of listings not asked for, want at most %d", dir, w.bytes, 2*walkBudget)
		}
	}
	if w.bytes == 0 {
		t.Error("the walk brought nothing ahead")
	}
}
