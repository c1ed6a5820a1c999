//go:build !js && !wasip1

package overlay_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/store/osdir"
	"github.com/llmfs/llmfs/store/overlay"
	sqlstore "github.com/llmfs/llmfs/store/sql"
	"github.com/llmfs/llmfs/store/storetest"
)

var ctx = context.Background()

// sqliteUpper opens a SQLite file store in a temporary directory.
func sqliteUpper(t *testing.T, file string) store.Store {
	t.Helper()
	s, err := sqlstore.OpenDSN(ctx, "sqlite:"+file, "review", &sqlstore.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newOverlay(t *testing.T, base, upper store.Store) *overlay.Overlay {
	t.Helper()
	o, err := overlay.New(ctx, base, upper)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestConformanceMemUpper(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
		return newOverlay(t, mem.New(), mem.New())
	}})
}

func TestConformanceSQLiteUpperOverHostDir(t *testing.T) {
	storetest.Run(t, storetest.Opt{New: func(t *testing.T) store.Store {
		base, err := osdir.New(t.TempDir(), false)
		if err != nil {
			t.Fatal(err)
		}
		return newOverlay(t, base, sqliteUpper(t, filepath.Join(t.TempDir(), "up.db")))
	}})
}

func write(t *testing.T, s store.Store, name, content string) {
	t.Helper()
	if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
		t.Fatalf("write %s: %v", name, err)
	}
}

func read(t *testing.T, s store.Store, name string) (string, error) {
	t.Helper()
	f, err := s.Open(ctx, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// tree lists every file of s with its content, and every directory with a trailing slash.
func tree(t *testing.T, s store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(dir string)
	walk = func(dir string) {
		es, err := s.ReadDir(ctx, dir)
		if err != nil {
			t.Fatalf("ReadDir(%s): %v", dir, err)
		}
		for _, e := range es {
			name := e.Name()
			if dir != "." {
				name = dir + "/" + name
			}
			if e.IsDir() {
				out[name+"/"] = ""
				walk(name)
				continue
			}
			c, err := read(t, s, name)
			if err != nil {
				t.Fatalf("read %s: %v", name, err)
			}
			out[name] = c
		}
	}
	walk(".")
	return out
}

func baseTree(t *testing.T) store.Store {
	b := mem.New()
	for _, d := range []string{"d", "d/sub", "e"} {
		if err := b.Mkdir(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	write(t, b, "a", "A\n")
	write(t, b, "d/f", "F\n")
	write(t, b, "d/sub/g", "G\n")
	write(t, b, "e/h", "H\n")
	return b
}

// TestOverlayLeavesBaseAlone changes files of every kind and checks the overlay shows the
// changes while the base is as it was.
func TestOverlayLeavesBaseAlone(t *testing.T) {
	base := baseTree(t)
	before := tree(t, base)
	upper := mem.New()
	o := newOverlay(t, base, upper)
	write(t, o, "a", "A2\n")
	write(t, o, "d/new", "N\n")
	if err := o.Remove(ctx, "e/h"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename(ctx, "d", "moved"); err != nil {
		t.Fatal(err)
	}
	write(t, o, "moved/sub/later", "L\n")
	got := tree(t, o)
	want := map[string]string{
		"a": "A2\n", "e/": "", "moved/": "", "moved/f": "F\n", "moved/new": "N\n",
		"moved/sub/": "", "moved/sub/g": "G\n", "moved/sub/later": "L\n",
	}
	if !equal(got, want) {
		t.Errorf("overlay tree = %v\nwant %v", got, want)
	}
	if after := tree(t, base); !equal(after, before) {
		t.Errorf("the base changed: %v", after)
	}
	if _, err := o.Stat(ctx, "d/f"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(d/f) after moving d = %v, want not exist", err)
	}
	// A second overlay on the same upper store shows the same tree: the state survives.
	o2 := newOverlay(t, base, upper)
	if got2 := tree(t, o2); !equal(got2, want) {
		t.Errorf("reopened overlay tree = %v", got2)
	}
}

// TestOverlayRestartSQLite reopens a SQLite upper store and finds the pending changes.
func TestOverlayRestartSQLite(t *testing.T) {
	base := baseTree(t)
	file := filepath.Join(t.TempDir(), "up.db")
	o := newOverlay(t, base, sqliteUpper(t, file))
	write(t, o, "a", "changed\n")
	if err := o.Remove(ctx, "e/h"); err != nil {
		t.Fatal(err)
	}
	o2 := newOverlay(t, base, sqliteUpper(t, file))
	if c, _ := read(t, o2, "a"); c != "changed\n" {
		t.Errorf("a after restart = %q", c)
	}
	if _, err := o2.Stat(ctx, "e/h"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("e/h after restart: %v, want not exist", err)
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sqliteUpperB(b *testing.B) store.Store {
	s, err := sqlstore.OpenDSN(ctx, "sqlite:"+filepath.Join(b.TempDir(), "up.db"), "review", &sqlstore.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func newOverlayB(b *testing.B, base, upper store.Store) *overlay.Overlay {
	o, err := overlay.New(ctx, base, upper)
	if err != nil {
		b.Fatal(err)
	}
	return o
}
