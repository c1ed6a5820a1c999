//go:build !js && !wasip1

package acp

// Transcript tests replay JSON-RPC exchanges kept in testdata/transcripts/*.txtar against
// a FileServer on a real connection. Each archive holds the project's files (under
// "proj/"), optional "mode" (a work mode), and a "transcript": lines "> request" each
// followed by "< expected response", where $ROOT stands for the project directory.
// Run with -update to rewrite the expected responses from what the server says.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

var update = flag.Bool("update", false, "rewrite the expected responses of testdata/transcripts")

// archive is a txtar archive: a comment, then files introduced by "-- name --" lines.
type archive struct {
	comment string
	names   []string
	files   map[string]string
}

func parseArchive(data string) *archive {
	a := &archive{files: map[string]string{}}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			a.comment = b.String()
		} else {
			a.files[cur] = b.String()
			a.names = append(a.names, cur)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			cur = t[3 : len(t)-3]
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

func (a *archive) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for _, n := range a.names {
		b.WriteString("-- " + n + " --\n")
		b.WriteString(a.files[n])
	}
	return b.String()
}

func TestTranscripts(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no transcripts")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(string(data))
			root := filepath.Join(t.TempDir(), "proj")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for name, content := range a.files {
				if rel, ok := strings.CutPrefix(name, "proj/"); ok {
					files[rel] = content
				}
			}
			writeFiles(t, root, files)
			root, _ = filepath.EvalSymlinks(root)
			srv := NewFileServer(&FileServerOptions{Mode: llmfs.Mode(strings.TrimSpace(a.files["mode"]))})
			if err := srv.AddSession("s1", root); err != nil {
				t.Fatal(err)
			}
			peer := newRawConn(t, srv.Handle)

			var out strings.Builder
			lines := strings.Split(strings.TrimSuffix(a.files["transcript"], "\n"), "\n")
			for i := 0; i < len(lines); i++ {
				line := lines[i]
				req, ok := strings.CutPrefix(line, "> ")
				if !ok {
					out.WriteString(line + "\n")
					continue
				}
				out.WriteString(line + "\n")
				got := strings.ReplaceAll(peer.roundTrip(t, strings.ReplaceAll(req, "$ROOT", root)), root, "$ROOT")
				want := ""
				if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "< ") {
					i++
					want = strings.TrimPrefix(lines[i], "< ")
				}
				out.WriteString("< " + got + "\n")
				if !*update && !sameJSON(got, want) {
					t.Errorf("request %s\n got %s\nwant %s", req, got, want)
				}
			}
			if *update {
				a.files["transcript"] = out.String()
				if err := os.WriteFile(path, []byte(a.format()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// rawConn is the far end of a connection that the test drives line by line.
type rawConn struct {
	w *os.File
	r *bufio.Reader
}

func newRawConn(t *testing.T, h Handler) *rawConn {
	t.Helper()
	cr, tw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tr, cw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := NewConn(cr, cw, h)
	t.Cleanup(func() { tw.Close(); c.Close(); cr.Close(); tr.Close() })
	return &rawConn{w: tw, r: bufio.NewReader(tr)}
}

func (c *rawConn) roundTrip(t *testing.T, line string) string {
	t.Helper()
	if _, err := c.w.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := c.r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading the response to %s: %v", line, err)
	}
	return string(bytes.TrimSpace(resp))
}
