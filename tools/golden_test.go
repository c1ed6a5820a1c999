//go:build !js && !wasip1

package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs/store/sql/sqltest"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

var update = flag.Bool("update", false, "rewrite the expected results in tools/testdata/*.txtar")

// TestGolden replays the tool calls in testdata/*.txtar and compares each result, as a model
// would see it, with the archive. An archive holds:
//
//   - a comment whose "key: value" lines set the options: dialect (agentool or rtc),
//     require_read (true or false; default: the dialect's), mode, max_read_lines,
//     max_read_bytes, max_line_length;
//   - files: every section whose name does not start with ">", "<" or "=" is a file of the
//     initial tree;
//   - steps, in order: "> TOOL" is a call in session 1 with the JSON arguments as body,
//     ">2 TOOL" the same in session 2 (another workspace on the same directory or store);
//     "<" is the expected result of the call before it, indented JSON, a failure as
//     {"error": {"code", "message"}}; "= NAME" is the expected content of file NAME at
//     that point. "$ROOT" in arguments stands for the workspace root.
//
// Each archive runs on a host directory, on a memory store with the same root name, and on
// the stores $LLMFS_TEST_STORE names (see goldenKinds); the root shows as $ROOT. Run with
// -update to rewrite the expected sections.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for i, kind := range goldenKinds(t) {
				got := runGolden(t, ar, kind)
				if *update && i == 0 {
					if err := os.WriteFile(file, txtar.Format(got), 0o644); err != nil {
						t.Fatal(err)
					}
					ar = got
					continue
				}
				for j, f := range ar.Files {
					if string(got.Files[j].Data) != string(f.Data) {
						t.Errorf("%s: step %d (%s) after %s:\ngot:\n%s\nwant:\n%s", kind, j, f.Name, describe(ar, j), got.Files[j].Data, f.Data)
					}
				}
			}
		})
	}
}

// describe names the call before section j, for failure messages.
func describe(ar *txtar.Archive, j int) string {
	for k := j - 1; k >= 0; k-- {
		if strings.HasPrefix(ar.Files[k].Name, ">") {
			return fmt.Sprintf("%q %s", ar.Files[k].Name, bytes.TrimSpace(ar.Files[k].Data))
		}
	}
	return "the start"
}

type goldenOptions struct {
	dialect     tools.Dialect
	requireRead *bool
	opts        llmfs.Options
}

func parseGoldenOptions(t *testing.T, comment []byte) goldenOptions {
	var g goldenOptions
	for line := range strings.Lines(string(comment)) {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok {
			continue
		}
		num := func() int {
			n, err := strconv.Atoi(val)
			if err != nil {
				t.Fatalf("option %s: %v", key, err)
			}
			return n
		}
		switch key {
		case "dialect":
			g.dialect = tools.Dialect(val)
		case "require_read":
			b := val == "true"
			g.requireRead = &b
		case "mode":
			g.opts.Mode = llmfs.Mode(val)
		case "max_read_lines":
			g.opts.Limits.MaxReadLines = num()
		case "max_read_bytes":
			g.opts.Limits.MaxReadBytes = num()
		case "max_line_length":
			g.opts.Limits.MaxLineLength = num()
		}
	}
	return g
}

// runGolden runs the archive on a fresh store of the given kind and returns the archive
// with every expected section replaced by what happened.
func runGolden(t *testing.T, ar *txtar.Archive, kind string) *txtar.Archive {
	ctx := context.Background()
	g := parseGoldenOptions(t, ar.Comment)
	var root string
	var open func() *llmfs.Workspace
	switch kind {
	case "osdir":
		root = t.TempDir()
		root, _ = filepath.EvalSymlinks(root)
		open = func() *llmfs.Workspace {
			o := g.opts
			o.Root = root
			ws, err := host.Open(&o)
			if err != nil {
				t.Fatal(err)
			}
			return ws
		}
	case "mem", "sqlite", "postgres":
		root = "/llmfs-golden-root"
		var s store.Store = mem.New()
		if kind != "mem" {
			s = sqlWorkspace(t, kind)
		}
		open = func() *llmfs.Workspace {
			o := g.opts
			o.Root = root
			return llmfs.New(s, &o)
		}
	}
	// The initial tree goes straight to the store; setup, a workspace that tracks no reads,
	// reads files back for "=" steps.
	setup := open().With(llmfs.RequireRead(false))
	for _, f := range ar.Files {
		if isStep(f.Name) {
			continue
		}
		if err := writeSetup(ctx, setup.Store(), f.Name, string(f.Data)); err != nil {
			t.Fatalf("writing %s: %v", f.Name, err)
		}
	}
	if kind == "osdir" {
		// A host's file times tick coarsely (a few milliseconds): files written within one
		// tick share a time, and a newest-first listing (glob) then orders them by name, so
		// the golden's order would depend on the machine's speed. Each file of the archive
		// is made one second newer than the one before it.
		base := time.Now().Add(-time.Hour)
		for i, f := range ar.Files {
			if isStep(f.Name) || strings.HasSuffix(f.Name, "/") {
				continue
			}
			at := base.Add(time.Duration(i) * time.Second)
			if err := os.Chtimes(filepath.Join(root, f.Name), at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	var sessions [2]*tools.Toolbox
	for i := range sessions {
		tb, err := tools.NewWithOptions(open(), g.dialect, &tools.Options{RequireRead: g.requireRead})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = tb
	}
	out := &txtar.Archive{Comment: ar.Comment}
	var last []byte
	for _, f := range ar.Files {
		data := f.Data
		switch {
		case strings.HasPrefix(f.Name, ">"):
			sess, tool := 0, strings.TrimSpace(f.Name[1:])
			if strings.HasPrefix(f.Name, ">2") {
				sess, tool = 1, strings.TrimSpace(f.Name[2:])
			}
			args := bytes.ReplaceAll(f.Data, []byte("$ROOT"), []byte(root))
			res, err := sessions[sess].Call(ctx, tool, json.RawMessage(args))
			if err != nil {
				res, _ = json.Marshal(map[string]any{"error": tools.ErrorOf(err)})
			}
			last = pretty(t, res, root)
		case f.Name == "<":
			data = last
		case strings.HasPrefix(f.Name, "="):
			name := strings.TrimSpace(f.Name[1:])
			b, err := readRaw(ctx, setup, name)
			if err != nil {
				b = []byte("(error: " + err.Error() + ")\n")
			}
			data = b
		}
		out.Files = append(out.Files, txtar.File{Name: f.Name, Data: data})
	}
	return out
}

func isStep(name string) bool {
	return strings.HasPrefix(name, ">") || strings.HasPrefix(name, "<") || strings.HasPrefix(name, "=")
}

// writeSetup writes a file of the initial tree straight to the store, parents first.
func writeSetup(ctx context.Context, s store.Store, name, content string) error {
	parts := strings.Split(strings.TrimSuffix(name, "/"), "/")
	for i := 1; i < len(parts); i++ {
		if err := s.Mkdir(ctx, strings.Join(parts[:i], "/")); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if strings.HasSuffix(name, "/") {
		return s.Mkdir(ctx, strings.TrimSuffix(name, "/"))
	}
	_, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{})
	return err
}

func readRaw(ctx context.Context, ws *llmfs.Workspace, name string) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := ws.ReadTo(ctx, name, llmfs.ReadOptions{Limit: llmfs.NoLimit}, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pretty indents a JSON result, leaves <, > and & unescaped, and shows the root as $ROOT.
func pretty(t *testing.T, raw []byte, root string) []byte {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("result is not JSON: %v: %s", err, raw)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte(root), []byte("$ROOT"))
}

// storeEnv selects further stores for the golden tests: a comma-separated list of sqlite
// and postgres (store/sql; postgres needs LLMFS_TEST_POSTGRES, a DSN). CI sets it.
const storeEnv = "LLMFS_TEST_STORE"

// goldenKinds are the stores every archive runs on.
func goldenKinds(t *testing.T) []string {
	kinds := []string{"osdir", "mem"}
	v := os.Getenv(storeEnv)
	if v == "" {
		return kinds
	}
	for _, k := range strings.Split(v, ",") {
		switch k = strings.TrimSpace(k); k {
		case "sqlite", "postgres":
			kinds = append(kinds, k)
		default:
			t.Fatalf("%s=%q: want a comma-separated list of sqlite and postgres", storeEnv, v)
		}
	}
	return kinds
}

// sqlWorkspace returns a fresh workspace of store/sql, removed at cleanup: in a SQLite file,
// or in the PostgreSQL database LLMFS_TEST_POSTGRES names.
func sqlWorkspace(t *testing.T, kind string) store.Store {
	t.Helper()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "llmfs.db")
	if kind == "postgres" {
		if dsn = os.Getenv("LLMFS_TEST_POSTGRES"); dsn == "" {
			t.Fatalf("%s asks for postgres, but LLMFS_TEST_POSTGRES (a DSN, see .ci/postgres.sh) is not set", storeEnv)
		}
	}
	return sqltest.Workspace(t, dsn, "golden")
}
