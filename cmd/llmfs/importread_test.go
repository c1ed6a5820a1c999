//go:build !js && !wasip1

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sqlstore "github.com/llmfs/llmfs/store/sql"
)

// Issue 18.6: an import reads files ahead of the writer (whole up to prefetchMax bytes,
// streamed past it) and checkpoints SQLite's log in the background. What it imports is
// what the directory held, whichever way each file came, and the database file holds it
// all once the import is done (the log was checkpointed).
func TestImportPrefetchAndCheckpoint(t *testing.T) {
	base := t.TempDir()
	db := filepath.Join(base, "w.db")
	dsn := "sqlite:" + db
	src := filepath.Join(base, "src")
	want := map[string][]byte{
		"empty":         {},
		"edge":          bytes.Repeat([]byte("e"), prefetchMax),
		"large":         bytes.Repeat([]byte("0123456789abcdef"), prefetchMax/16*3+5),
		"sub/deep/x.go": []byte("package x\n"),
	}
	for i := range 300 {
		want[fmt.Sprintf("many/f%03d.txt", i)] = []byte(strings.Repeat(fmt.Sprintf("line %d\n", i), i))
	}
	for name, body := range want {
		mkfile(t, filepath.Join(src, name), string(body))
	}
	if code, _, errOut := runCLI(t, "ws", "create", "--store", dsn, "demo"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, "ws", "import", "--store", dsn, "demo", src); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	if fi, err := os.Stat(db); err != nil || fi.Size() < 3*prefetchMax {
		t.Errorf("database file after the import: %v, %v; want the content checkpointed into it", fi, err)
	}
	dst := filepath.Join(base, "out")
	if code, _, errOut := runCLI(t, "ws", "export", "--store", dsn, "demo", dst); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(dst, name))
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("%s: %d bytes, %v; want %d", name, len(got), err, len(body))
		}
	}
}

func TestBulkDSN(t *testing.T) {
	for dsn, want := range map[string]string{
		"sqlite:/x.db":                                "sqlite:/x.db?_pragma=wal_autocheckpoint(0)",
		"sqlite:/x.db?_pragma=synchronous(FULL)":      "sqlite:/x.db?_pragma=synchronous(FULL)&_pragma=wal_autocheckpoint(0)",
		"sqlite:/x.db?_pragma=wal_autocheckpoint(50)": "sqlite:/x.db?_pragma=wal_autocheckpoint(50)",
		"sqlite::memory:":                             "sqlite::memory:",
		"postgres://u@h/db":                           "postgres://u@h/db",
	} {
		if got := bulkDSN(dsn); got != want {
			t.Errorf("bulkDSN(%q) = %q, want %q", dsn, got, want)
		}
	}
}

func TestScanDSN(t *testing.T) {
	for dsn, want := range map[string]string{
		"sqlite:/x.db":                           "sqlite:/x.db?_pragma=cache_size(-256)",
		"sqlite:/x.db?_pragma=synchronous(FULL)": "sqlite:/x.db?_pragma=synchronous(FULL)&_pragma=cache_size(-256)",
		"sqlite:/x.db?_pragma=cache_size(-8000)": "sqlite:/x.db?_pragma=cache_size(-8000)",
		"sqlite::memory:":                        "sqlite::memory:",
		"postgres://u@h/db":                      "postgres://u@h/db",
	} {
		if got := scanDSN(dsn); got != want {
			t.Errorf("scanDSN(%q) = %q, want %q", dsn, got, want)
		}
	}
}

// readHostFile reads a file whole whatever size the walk saw: grown, shrunk or empty.
func TestReadHostFileSizes(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 4096, 100000} {
		body := bytes.Repeat([]byte("z"), n)
		p := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, guess := range []int64{0, int64(n) / 2, int64(n), int64(n) + 10} {
			got, err := readHostFile(p, guess)
			if err != nil || !bytes.Equal(got, body) {
				t.Errorf("%d bytes read as %d: %d bytes, %v", n, guess, len(got), err)
			}
		}
	}
	if _, err := readHostFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestImportLimits: on PostgreSQL an import commits in larger batches than on SQLite, whose
// writers wait for each batch: each commit drains the import's pipeline (65 ms a batch for
// the Go tree, loaded), and the Go tree's 122 MiB took three batches of 64 MiB.
func TestImportLimits(t *testing.T) {
	sf, sb := importLimits(sqlstore.SQLite)
	pf, pb := importLimits(sqlstore.Postgres)
	if sf != 4096 || sb != 64<<20 {
		t.Errorf("SQLite: %d entries, %d bytes a batch; want 4096 and 64 MiB", sf, sb)
	}
	if pf < 16384 || pb < 256<<20 {
		t.Errorf("PostgreSQL: %d entries, %d bytes a batch; want at least 16384 and 256 MiB", pf, pb)
	}
}
