package llmfs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// TestEditLineEndings checks that an edit written with "\n" keeps a file's CRLF endings
// and its byte-order mark, including an edit of line 1 right after the mark.
func TestEditLineEndings(t *testing.T) {
	type test struct {
		name         string
		file         string
		old, new     string
		want         string
		replaceAll   bool
		wantReplaced int
	}
	tests := []test{
		{name: "crlf multi-line", file: "a\r\nb\r\nc\r\n", old: "a\nb\n", new: "x\ny\nz\n", want: "x\r\ny\r\nz\r\n" + "c\r\n"},
		{name: "crlf one line, new lines", file: "a\r\nb\r\n", old: "a", new: "a1\na2", want: "a1\r\na2\r\nb\r\n"},
		{name: "crlf old given with crlf", file: "a\r\nb\r\n", old: "a\r\nb", new: "b\na", want: "b\r\na\r\n"},
		{name: "lf file, old given with crlf", file: "a\nb\n", old: "a\r\nb", new: "b\r\na", want: "b\na\n"},
		{name: "bom, line 1", file: "\uFEFFpackage a\nvar x = 1\n", old: "package a", new: "package b", want: "\uFEFFpackage b\nvar x = 1\n"},
		{name: "bom, line 1 and 2", file: "\uFEFFpackage a\nvar x = 1\n", old: "package a\nvar x", new: "// doc\npackage a\nvar y", want: "\uFEFF// doc\npackage a\nvar y = 1\n"},
		{name: "bom copied into old", file: "\uFEFFpackage a\n", old: "\uFEFFpackage a", new: "package b", want: "\uFEFFpackage b\n"},
		{name: "bom copied into old and new", file: "\uFEFFpackage a\n", old: "\uFEFFpackage a", new: "\uFEFFpackage b", want: "\uFEFFpackage b\n"},
		{name: "bom and crlf", file: "\uFEFFone\r\ntwo\r\n", old: "one\ntwo", new: "1\n2", want: "\uFEFF1\r\n2\r\n"},
		{name: "crlf replace all", file: "k=1\r\nk=1\r\n", old: "k=1\n", new: "k=2\n", replaceAll: true, want: "k=2\r\nk=2\r\n", wantReplaced: 2},
		{name: "mixed endings, bare lf matches as given", file: "a\nb\r\nc\n", old: "a\nb", new: "x\ny", want: "x\ny\r\nc\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
				putRaw(t, ws, "f", tc.file)
				res, err := ws.Edit(context.Background(), "f", tc.old, tc.new, tc.replaceAll)
				if err != nil {
					t.Fatal(err)
				}
				if got := getRaw(t, ws, "f"); got != tc.want {
					t.Errorf("file = %q, want %q", got, tc.want)
				}
				want := max(tc.wantReplaced, 1)
				if res.Replacements != want {
					t.Errorf("Replacements = %d, want %d", res.Replacements, want)
				}
			})
		})
	}
}

func TestEditRules(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		var sb strings.Builder
		for i := 1; i <= 9; i++ {
			fmt.Fprintf(&sb, "x := %d\nreturn nil\n", i)
		}
		putRaw(t, ws, "f.go", sb.String())
		type test struct {
			old, new string
			code     llmfs.Code
			msg      string
		}
		tests := []test{
			{"", "a", llmfs.CodeInvalidArgument, "the old text must not be empty; give the exact text to replace (to create or replace a whole file, write it)"},
			{"x := 1", "x := 1", llmfs.CodeInvalidArgument, "the old and new text are the same, so the edit would change nothing"},
			{"return nil", "return err", llmfs.CodePatternNotUnique, "the old text occurs 9 times in f.go (first at lines 2, 4, 6, 8, 10). Include more surrounding lines to make it unique, or set replace_all to replace every occurrence."},
			{"x := 3\nreturn nil", "x := 3\nreturn err", "", ""},
			{"return  nil", "y", llmfs.CodePatternNotFound, "the old text was not found in f.go, even with differences in indentation, trailing whitespace, quotes and copied line numbers forgiven. Copy it from the file exactly. The most similar line is 2, which differs from its first line only in whitespace: \"return nil\"."},
			{"x := 10", "y", llmfs.CodePatternNotFound, "the old text was not found in f.go, even with differences in indentation, trailing whitespace, quotes and copied line numbers forgiven. Copy it from the file exactly. The most similar line is 1: \"x := 1\"."},
			{"\n\n  zzz qqq\n", "y", llmfs.CodePatternNotFound, "the old text was not found in f.go, even with differences in indentation, trailing whitespace, quotes and copied line numbers forgiven. Copy it from the file exactly. No line of the file is similar to its first line; read the file to see its current content."},
		}
		for _, tc := range tests {
			_, err := ws.Edit(ctx, "f.go", tc.old, tc.new, false)
			if tc.code == "" {
				if err != nil {
					t.Errorf("Edit(%q) = %v", tc.old, err)
				}
				continue
			}
			e, ok := err.(*llmfs.Error)
			if !ok || e.Code != tc.code || e.Msg != tc.msg {
				t.Errorf("Edit(%q) = %v\nwant %s: %s", tc.old, err, tc.code, tc.msg)
			}
		}
		if !strings.Contains(getRaw(t, ws, "f.go"), "x := 3\nreturn err\n") {
			t.Errorf("the one good edit is missing")
		}
	})
}

// TestEditManyAllOrNothing checks that a batch whose third edit fails changes nothing, and
// that a good batch applies each edit to the result of the one before.
func TestEditManyAllOrNothing(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		const orig = "alpha\nbeta\ngamma\n"
		putRaw(t, ws, "f", orig)
		_, err := ws.EditMany(ctx, "f", []llmfs.Replacement{{Old: "alpha", New: "A"}, {Old: "beta", New: "B"}, {Old: "delta", New: "D"}})
		if llmfs.CodeOf(err) != llmfs.CodePatternNotFound || !strings.HasPrefix(err.(*llmfs.Error).Msg, "edit 3 of 3: ") {
			t.Errorf("EditMany = %v, want PATTERN_NOT_FOUND for edit 3 of 3", err)
		}
		if got := getRaw(t, ws, "f"); got != orig {
			t.Errorf("after a failed batch the file is %q", got)
		}
		_, err = ws.EditMany(ctx, "f", []llmfs.Replacement{{Old: "alpha", New: "x"}, {Old: "x", New: "x"}})
		if llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
			t.Errorf("EditMany with a no-op edit = %v, want INVALID_ARGUMENT", err)
		}
		res, err := ws.EditMany(ctx, "f", []llmfs.Replacement{{Old: "alpha", New: "beta"}, {Old: "beta", New: "B", ReplaceAll: true}})
		if err != nil {
			t.Fatal(err)
		}
		if got := getRaw(t, ws, "f"); got != "B\nB\ngamma\n" || res.Replacements != 3 {
			t.Errorf("file = %q, %d replacements; want B B gamma, 3", got, res.Replacements)
		}
		if _, err := ws.EditMany(ctx, "f", nil); llmfs.CodeOf(err) != llmfs.CodeInvalidArgument {
			t.Errorf("EditMany(nil) = %v", err)
		}
	})
}

// TestEditNotFoundBigFile makes sure the similar-line search stays usable on a large file.
func TestEditNotFoundBigFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		var sb strings.Builder
		for i := range 200000 {
			fmt.Fprintf(&sb, "\tvalue_%d := compute(%d, %d)\n", i, i*3, i*7)
		}
		putRaw(t, ws, "big.go", sb.String())
		_, err := ws.Edit(context.Background(), "big.go", "value_123456 := compute(370368, 864193)", "x", false)
		want := `The most similar line is 123457: "\tvalue_123456 := compute(370368, 864192)".`
		if llmfs.CodeOf(err) != llmfs.CodePatternNotFound || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Edit = %v\nwant a message ending %s", err, want)
		}
	})
}
