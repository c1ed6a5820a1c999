//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
)

func hostWorkspace(t *testing.T, files map[string]string, opts *llmfs.Options) (*llmfs.Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if opts == nil {
		opts = &llmfs.Options{}
	}
	opts.Root = dir
	w, err := host.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w, dir
}

var grepTree = map[string]string{
	"a.go":           "package a\n// TODO: one\n",
	"sub/b.go":       "package b\n\n// TODO: two\nfunc f() {}\n",
	"sub/c.txt":      "todo three\n",
	"sub/.ignore":    "ignored.go\n",
	"sub/ignored.go": "// TODO: hidden by .ignore\n",
}

func TestGrep(t *testing.T) {
	w, dir := hostWorkspace(t, grepTree, &llmfs.Options{Mode: llmfs.ReadOnly})
	ctx := context.Background()
	type test struct {
		opts llmfs.GrepOptions
		want string
	}
	for _, tc := range []test{
		{llmfs.GrepOptions{Pattern: "TODO"}, "a.go\nsub/b.go\n"},
		{llmfs.GrepOptions{Pattern: "todo", IgnoreCase: true, Mode: llmfs.GrepCount}, "a.go:1\nsub/b.go:1\nsub/c.txt:1\n"},
		{llmfs.GrepOptions{Pattern: "TODO", Path: "sub", Mode: llmfs.GrepContent, LineNumbers: true, Before: 1}, "sub/b.go-2-\nsub/b.go:3:// TODO: two\n"},
		{llmfs.GrepOptions{Pattern: "TODO", Path: dir + "/sub/b.go", Mode: llmfs.GrepContent}, "sub/b.go:// TODO: two\n"},
		{llmfs.GrepOptions{Pattern: "TODO", Type: "go", Path: "sub"}, "sub/b.go\n"},
		{llmfs.GrepOptions{Pattern: "TODO", Glob: "*.txt", IgnoreCase: true}, "sub/c.txt\n"},
		{llmfs.GrepOptions{Pattern: "TODO", NoIgnore: true, Path: "sub"}, "sub/b.go\nsub/ignored.go\n"},
		{llmfs.GrepOptions{Pattern: "package", HeadLimit: 1, Offset: 1}, "sub/b.go\n"},
		{llmfs.GrepOptions{Pattern: "nothing"}, ""},
	} {
		res, err := w.Grep(ctx, tc.opts)
		if err != nil {
			t.Errorf("Grep(%+v): %v", tc.opts, err)
			continue
		}
		if got := res.Text(); got != tc.want {
			t.Errorf("Grep(%+v) = %q, want %q", tc.opts, got, tc.want)
		}
	}
	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "package", HeadLimit: 1})
	if err != nil || !res.Truncated || res.NextOffset != 1 || strings.Join(res.Files(), ",") != "a.go" {
		t.Errorf("Grep with head limit 1 = %+v, %v; want a.go, truncated, next offset 1", res, err)
	}

	for _, tc := range []struct {
		opts llmfs.GrepOptions
		code llmfs.Code
		msg  string
	}{
		{llmfs.GrepOptions{Pattern: "a(b"}, llmfs.CodeInvalidArgument, "missing closing )"},
		{llmfs.GrepOptions{Pattern: "a", Type: "klingon"}, llmfs.CodeInvalidArgument, "unknown file type"},
		{llmfs.GrepOptions{Pattern: "a", Glob: "[x"}, llmfs.CodeInvalidArgument, "glob"},
		{llmfs.GrepOptions{Pattern: "a", Mode: "everything"}, llmfs.CodeInvalidArgument, "output mode"},
		{llmfs.GrepOptions{Pattern: "a", Path: "../x"}, llmfs.CodeInvalidPath, ""},
		{llmfs.GrepOptions{Pattern: "a", Path: "/etc"}, llmfs.CodeInvalidPath, ""},
		{llmfs.GrepOptions{Pattern: "a", Path: "missing"}, llmfs.CodeFileNotFound, ""},
	} {
		_, err := w.Grep(ctx, tc.opts)
		if llmfs.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Grep(%+v) = %v, want %s containing %q", tc.opts, err, tc.code, tc.msg)
		}
	}
}

func TestGrepRelaxedAndVirtual(t *testing.T) {
	ctx := context.Background()
	w, dir := hostWorkspace(t, grepTree, &llmfs.Options{Relaxed: true})
	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "TODO", Path: "sub"})
	if err != nil || res.Text() != "sub/b.go\n" {
		t.Errorf("relaxed Grep = %q, %v; want sub/b.go (sub/.ignore honoured)", res.Text(), err)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "o.txt"), []byte("TODO out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = w.Grep(ctx, llmfs.GrepOptions{Pattern: "TODO", Path: outside})
	if want := filepath.ToSlash(filepath.Join(outside, "o.txt")) + "\n"; err != nil || res.Text() != want {
		t.Errorf("relaxed Grep outside the root = %q, %v; want %q", res.Text(), err, want)
	}
	_ = dir

	s := mem.New()
	v := llmfs.New(s, nil)
	if _, err := v.Write(ctx, "/d/x.md", "hello TODO\n", llmfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err = v.Grep(ctx, llmfs.GrepOptions{Pattern: "TODO", Mode: llmfs.GrepContent, LineNumbers: true})
	if err != nil || res.Text() != "d/x.md:1:hello TODO\n" {
		t.Errorf("virtual Grep = %q, %v", res.Text(), err)
	}
}

// TestGrepOutputBounded checks that content mode cuts long lines as reads do and that a
// byte cap ends a result with a note saying how to go on.
//
// Issue 12.7: grep content mode on a 30 MB one-line file returned 31 MB.
func TestGrepOutputBounded(t *testing.T) {
	long := strings.Repeat("é", 2<<20) + " needle\n" // 4 MiB on one line
	var many strings.Builder
	for i := range 600 {
		many.WriteString(strings.Repeat("x", 990) + " needle " + strings.Repeat("y", i%7) + "\n")
	}
	w, _ := hostWorkspace(t, map[string]string{"one.txt": long, "many.txt": many.String()}, nil)
	ctx := context.Background()

	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "needle", Path: "one.txt", Mode: llmfs.GrepContent, LineNumbers: true})
	noErr(t, err)
	text := res.Text()
	if len(text) > 10<<10 || res.CutLines != 1 || !strings.Contains(text, "[line cut: 4194311 bytes in all]") {
		t.Fatalf("one long line: %d bytes, %d cut; want a cut line of about 4 KiB with its mark:\n%.200s", len(text), res.CutLines, text)
	}
	if !strings.HasPrefix(text, "one.txt:1:"+strings.Repeat("é", llmfs.DefaultMaxLineLength)+" … [line cut") {
		t.Fatalf("the cut line does not keep %d characters: %.100q", llmfs.DefaultMaxLineLength, text)
	}

	o := llmfs.GrepOptions{Pattern: "needle", Path: "many.txt", Mode: llmfs.GrepContent, LineNumbers: true, MaxBytes: llmfs.DefaultGrepBytes}
	var pages strings.Builder
	for page := 0; ; page++ {
		res, err := w.Grep(ctx, o)
		noErr(t, err)
		if n := len(res.Text()); n > llmfs.DefaultGrepBytes {
			t.Fatalf("page %d: %d bytes, cap %d", page, n, llmfs.DefaultGrepBytes)
		}
		pages.WriteString(res.Text())
		if !res.Truncated {
			break
		}
		if !strings.Contains(res.Note, "offset") || res.NextOffset != o.Offset+len(res.Entries) {
			t.Fatalf("page %d: note %q, next offset %d", page, res.Note, res.NextOffset)
		}
		o.Offset = res.NextOffset
	}
	o.MaxBytes, o.Offset = 0, 0
	whole, err := w.Grep(ctx, o)
	noErr(t, err)
	if whole.Truncated || pages.String() != whole.Text() {
		t.Fatalf("pages differ from the whole (%d vs %d bytes)", pages.Len(), len(whole.Text()))
	}
}

// TestGrepNamedBinaryFile checks that grep on a binary file says it was not searched, and
// that a file with a binary format's signature but no NUL byte is binary for reads and
// searches alike.
//
// Issue 13.8: grep on a binary file gave an empty result, as if nothing matched, and a
// PNG or PDF without a NUL byte in its first block read as text.
func TestGrepNamedBinaryFile(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n needle \xff\xfe"
	pdf := "%PDF-1.7\n needle\n"
	w, _ := hostWorkspace(t, map[string]string{"bin.dat": "\x00needle\n", "a.png": png, "doc.pdf": pdf, "t.txt": "needle\n"}, nil)
	ctx := context.Background()
	for _, p := range []string{"bin.dat", "a.png", "doc.pdf"} {
		res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "needle", Path: p, Mode: llmfs.GrepContent})
		noErr(t, err)
		if !res.Binary || !strings.Contains(res.Note, "binary file") || len(res.Entries) != 0 {
			t.Errorf("grep %s: binary %v, note %q, %d entries; want it reported binary", p, res.Binary, res.Note, len(res.Entries))
		}
		_, err = w.Read(ctx, p, llmfs.ReadOptions{})
		wantCode(t, err, llmfs.CodeBinaryFile)
	}
	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "needle"})
	noErr(t, err)
	if got := res.Files(); len(got) != 1 || got[0] != "t.txt" || res.Binary || res.Note != "" {
		t.Errorf("grep of the tree: %q (binary %v, note %q), want only t.txt", got, res.Binary, res.Note)
	}
}
