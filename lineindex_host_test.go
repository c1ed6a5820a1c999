//go:build !js && !wasip1

package llmfs_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// lineIndexText is a file of n lines of varied length, with CRLF endings, a long line and
// bytes that are not UTF-8 here and there, ending with a newline if nl.
func lineIndexText(n int, nl bool, salt string) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d %s", salt, i, strings.Repeat("x", i%13))
		switch {
		case i%97 == 0:
			b.WriteString(strings.Repeat("long ", 80))
		case i%89 == 0:
			b.WriteString("\xff\xfe")
		}
		switch {
		case i == n && !nl:
		case i%5 == 0:
			b.WriteString("\r\n")
		default:
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}

type readCase struct{ offset, limit int }

var lineIndexCases = []readCase{
	{0, 0}, {1, 1}, {1, 50}, {7, 3}, {8, 1}, {700, 50}, {1999, 10}, {2400, 0}, {2401, 5},
	{2999, 5}, {3000, 1}, {3001, 1}, {5000, 3},
}

// readAllCases returns every case's ReadResult (or error) and ReadTo output.
func readAllCases(t *testing.T, ws *llmfs.Workspace) []string {
	t.Helper()
	var out []string
	for _, c := range lineIndexCases {
		opts := llmfs.ReadOptions{Offset: c.offset, Limit: c.limit}
		res, err := ws.Read(context.Background(), "big.txt", opts)
		out = append(out, fmt.Sprintf("Read %+v: %+v %v", c, res, err))
		var b bytes.Buffer
		n, err := ws.ReadTo(context.Background(), "big.txt", opts, &b)
		out = append(out, fmt.Sprintf("ReadTo %+v: %d %v %q", c, n, err, b.String()))
	}
	return out
}

// TestLineIndex: reads of a file with a line index return exactly what reads without one
// do, whether the index comes from memory or from its file; a change to the file (an
// append, a rewrite of the same size and time) or a damaged index file makes it unused;
// and nothing is created in the root.
func TestLineIndex(t *testing.T) {
	defer llmfs.SetRacyWindow(0)()
	// Chunks smaller than the file, as a large file's are: only a read whose first chunk
	// fills the buffer looks for an index.
	defer llmfs.SetReadBufferSize(4096)()
	cache := t.TempDir()
	t.Setenv("LLMFS_CACHE_DIR", cache)
	dir := t.TempDir()
	name := filepath.Join(dir, "big.txt")
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	put := func(data []byte) {
		t.Helper()
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	for _, limits := range []llmfs.Limits{{}, {MaxEditBytes: 100}, {MaxReadLines: 40, MaxReadBytes: 3000, MaxLineLength: 100, MaxEditBytes: 100}} {
		for _, tracked := range []bool{false, true} {
			ws, err := host.Open(&llmfs.Options{Root: dir, RequireRead: tracked, Limits: limits})
			if err != nil {
				t.Fatal(err)
			}
			// want is what a read without an index returns.
			want := func() []string {
				defer llmfs.SetLineIndex(1<<62, 7)()
				return readAllCases(t, ws)
			}
			check := func(what string) {
				t.Helper()
				w := want()
				defer llmfs.SetLineIndex(1<<10, 7)()
				for round, how := range []string{"building", "from memory", "from the file"} {
					if how == "from the file" {
						llmfs.ForgetLineIndexes()
					}
					if got := readAllCases(t, ws); !reflect.DeepEqual(got, w) {
						for i := range got {
							if got[i] != w[i] {
								t.Fatalf("%s, limits %+v, tracked %v, %s (round %d):\n got %s\nwant %s", what, limits, tracked, how, round, got[i], w[i])
							}
						}
					}
				}
			}
			for _, n := range []int{2999, 3000, 3001, 2401} {
				for _, nl := range []bool{true, false} {
					put(lineIndexText(n, nl, "a"))
					check(fmt.Sprintf("%d lines, final newline %v", n, nl))
				}
			}
			// Appended to, then rewritten with the same size and time, behind the index.
			put(lineIndexText(3000, true, "a"))
			check("before the changes")
			f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("appended\nlines\n")
			f.Close()
			os.Chtimes(name, stamp, stamp)
			check("appended")
			put(lineIndexText(3000, true, "b"))
			check("rewritten")
		}
	}
	// A damaged index file is ignored (and replaced).
	files, _ := filepath.Glob(filepath.Join(cache, "lines", "*.idx"))
	if len(files) != 1 {
		t.Fatalf("index files %q, want one", files)
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	ws, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := func() []string {
		defer llmfs.SetLineIndex(1<<62, 7)()
		return readAllCases(t, ws)
	}()
	defer llmfs.SetLineIndex(1<<10, 7)()
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x10
	for _, bad := range [][]byte{good[:len(good)/2], good[:len(good)-1], flipped, nil, []byte("junk")} {
		if err := os.WriteFile(files[0], bad, 0o644); err != nil {
			t.Fatal(err)
		}
		llmfs.ForgetLineIndexes()
		if got := readAllCases(t, ws); !reflect.DeepEqual(got, want) {
			t.Errorf("reads with a damaged index (%d bytes) differ", len(bad))
		}
	}
	if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, good) {
		t.Errorf("the damaged index was not rebuilt")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "big.txt" {
			t.Errorf("the root holds %s", e.Name())
		}
	}
}
