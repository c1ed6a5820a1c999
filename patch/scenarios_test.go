package patch

import (
	"context"
	"errors"
	"maps"
	"sort"
	"strings"
	"testing"
)

// apply plans p against files and returns the files as the plan leaves them.
func apply(t *testing.T, files map[string]string, text string) (map[string]string, *Plan, error) {
	t.Helper()
	p, err := Parse(text, "")
	if err != nil {
		return files, nil, err
	}
	pl, err := p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
		c, ok := files[path]
		return c, ok, nil
	})
	if err != nil {
		return files, nil, err
	}
	out := maps.Clone(files)
	for _, f := range pl.Files {
		if f.Delete {
			delete(out, f.Path)
		} else {
			out[f.Path] = f.After
		}
	}
	return out, pl, nil
}

func dump(m map[string]string) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		sb.WriteString("-- " + k + " --\n" + m[k])
	}
	return sb.String()
}

// Issue 17.2: the scenarios of Codex's apply_patch test suite, restated. Each names its
// fixture; where llmfs differs on purpose the comment says why. On failure nothing changes.
func TestCodexScenarios(t *testing.T) {
	tests := []struct {
		name  string
		in    map[string]string
		patch string
		want  map[string]string // nil: the patch fails and in is unchanged
		err   string            // a part of the error message
	}{
		{name: "001 add file", in: map[string]string{},
			patch: "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n",
			want:  map[string]string{"bar.md": "This is a new file\n"}},
		{name: "002 multiple operations",
			in:    map[string]string{"delete.txt": "gone\n", "modify.txt": "line1\nline2\n"},
			patch: "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n",
			want:  map[string]string{"nested/new.txt": "created\n", "modify.txt": "line1\nchanged\n"}},
		{name: "003 multiple chunks", in: map[string]string{"multi.txt": "line1\nline2\nline3\nline4\n"},
			patch: "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n",
			want:  map[string]string{"multi.txt": "line1\nchanged2\nline3\nchanged4\n"}},
		{name: "004 move to new directory", in: map[string]string{"old/name.txt": "old content\n", "old/other.txt": "unrelated\n"},
			patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch\n",
			want:  map[string]string{"renamed/dir/name.txt": "new content\n", "old/other.txt": "unrelated\n"}},
		{name: "005 rejects empty patch", in: map[string]string{"foo.txt": "stable\n"},
			patch: "*** Begin Patch\n*** End Patch\n", err: "changes no file"},
		{name: "006 rejects missing context", in: map[string]string{"modify.txt": "line1\nline2\n"},
			patch: "*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n", err: "hunk 1 of 1"},
		{name: "007 rejects missing file delete", in: map[string]string{"foo.txt": "stable\n"},
			patch: "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n", err: "no such file"},
		{name: "008 rejects empty update hunk", in: map[string]string{"foo.txt": "stable\n"},
			patch: "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n", err: "no changes"},
		{name: "009 requires existing file for update", in: map[string]string{"foo.txt": "stable\n"},
			patch: "*** Begin Patch\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n", err: "no such file"},
		{name: "010 move overwrites existing destination",
			in:    map[string]string{"old/name.txt": "from\n", "old/other.txt": "x\n", "renamed/dir/name.txt": "existing\n"},
			patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n",
			want:  map[string]string{"old/other.txt": "x\n", "renamed/dir/name.txt": "new\n"}},
		{name: "011 add overwrites existing file", in: map[string]string{"duplicate.txt": "old content\n"},
			patch: "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n",
			want:  map[string]string{"duplicate.txt": "new content\n"}},
		{name: "013 rejects invalid hunk header", in: map[string]string{"foo.txt": "stable\n"},
			patch: "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n", err: "not a file header"},
		// 014: Codex always ends an updated file with a newline; llmfs keeps the file's own
		// (absent) final newline, so bytes stay exact.
		{name: "014 update keeps a missing final newline", in: map[string]string{"no_newline.txt": "no newline at end"},
			patch: "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n",
			want:  map[string]string{"no_newline.txt": "first line\nsecond line"}},
		// 015: Codex leaves created.txt behind when a later hunk fails; a plan is all or nothing.
		{name: "015 failure after partial success changes nothing", in: map[string]string{},
			patch: "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n", err: "no such file"},
		{name: "016 pure addition update chunk", in: map[string]string{"input.txt": "line1\nline2\n"},
			patch: "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n",
			want:  map[string]string{"input.txt": "line1\nline2\nadded line 1\nadded line 2\n"}},
		{name: "017 whitespace padded hunk header", in: map[string]string{"foo.txt": "old\n"},
			patch: "*** Begin Patch\n *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n",
			want:  map[string]string{"foo.txt": "new\n"}},
		{name: "018 whitespace padded patch markers", in: map[string]string{"file.txt": "one\n"},
			patch: " *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n",
			want:  map[string]string{"file.txt": "two\n"}},
		{name: "019 unicode", in: map[string]string{"foo.txt": "line1\nnaïve café\nline3\n"},
			patch: "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch\n",
			want:  map[string]string{"foo.txt": "line1\nnaïve café ✅\nline3\n"}},
		{name: "020 delete file", in: map[string]string{"keep.txt": "keep\n", "obsolete.txt": "x\n"},
			patch: "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n",
			want:  map[string]string{"keep.txt": "keep\n"}},
		{name: "020 whitespace padded marker lines", in: map[string]string{"file.txt": "one\n"},
			patch: "*** Begin Patch \n*** Update File: file.txt\n@@\n-one\n+two\n *** End Patch\n",
			want:  map[string]string{"file.txt": "two\n"}},
		{name: "021 deletion only", in: map[string]string{"lines.txt": "line1\nline2\nline3\n"},
			patch: "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n",
			want:  map[string]string{"lines.txt": "line1\nline3\n"}},
		{name: "022 end of file marker", in: map[string]string{"tail.txt": "first\nsecond\n"},
			patch: "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n",
			want:  map[string]string{"tail.txt": "first\nsecond updated\n"}},
		{name: "heredoc wrapper", in: map[string]string{"a.txt": "x\n"},
			patch: "<<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-x\n+y\n*** End Patch\nEOF\n",
			want:  map[string]string{"a.txt": "y\n"}},
		{name: "anchor picks the function", in: map[string]string{"a.py": "def f():\n    pass\n\ndef g():\n    pass\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    pass\n+    return 1\n*** End Patch\n",
			want:  map[string]string{"a.py": "def f():\n    pass\n\ndef g():\n    return 1\n"}},
		{name: "ambiguous without anchor", in: map[string]string{"a.py": "def f():\n    pass\n\ndef g():\n    pass\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@\n-    pass\n+    return 1\n*** End Patch\n", err: "match 2 places"},
		// *** End of File tells apart lines that occur more than once: the hunk goes at
		// the end (found by the Codex scenarios restated through apply_patch, which
		// refused this as matching 2 places).
		{name: "end of file marker picks the last of several", in: map[string]string{"e.txt": "x\ny\nx\ny\n"},
			patch: "*** Begin Patch\n*** Update File: e.txt\n@@\n x\n-y\n+Y\n*** End of File\n*** End Patch\n",
			want:  map[string]string{"e.txt": "x\ny\nx\nY\n"}},
		{name: "end of file marker with a tolerant step", in: map[string]string{"e.go": "\tx()\n\ty()\n\tx()\n\ty()\n\n"},
			patch: "*** Begin Patch\n*** Update File: e.go\n@@\n     x()\n-    y()\n+    z()\n*** End of File\n*** End Patch\n",
			want:  map[string]string{"e.go": "\tx()\n\ty()\n\tx()\n\tz()\n\n"}},
		{name: "end of file marker refuses a match elsewhere", in: map[string]string{"t.txt": "a\nb\nc\n"},
			patch: "*** Begin Patch\n*** Update File: t.txt\n@@\n-a\n+A\n*** End of File\n*** End Patch\n", err: "End of File"},
		{name: "tolerant indent", in: map[string]string{"a.go": "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n"},
			patch: "*** Begin Patch\n*** Update File: a.go\n@@\n     if x {\n-        return 1\n+        return 2\n     }\n*** End Patch\n",
			want:  map[string]string{"a.go": "func f() {\n\tif x {\n\t\treturn 2\n\t}\n}\n"}},
		{name: "crlf file", in: map[string]string{"w.txt": "one\r\ntwo\r\n"},
			patch: "*** Begin Patch\n*** Update File: w.txt\n@@\n one\n-two\n+zwei\n*** End Patch\n",
			want:  map[string]string{"w.txt": "one\r\nzwei\r\n"}},
		{name: "nearest text shown", in: map[string]string{"a.txt": "alpha\nbeta gamma\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-beta gamme\n+x\n*** End Patch\n", err: "nearest text is at line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := apply(t, tt.in, tt.patch)
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				if dump(got) != dump(tt.in) {
					t.Fatalf("a failed patch changed files:\n%s", dump(got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dump(got) != dump(tt.want) {
				t.Errorf("got\n%s\nwant\n%s", dump(got), dump(tt.want))
			}
		})
	}
}

func TestUnifiedAndSearchReplace(t *testing.T) {
	in := map[string]string{"a.py": "def f():\n    return 1\n\ndef g():\n    return 1\n", "b.txt": "x\ny\n"}
	tests := []struct {
		name, patch string
		want        map[string]string
		err         string
	}{
		{name: "unified with numbers", patch: "--- a/a.py\n+++ b/a.py\n@@ -4,2 +4,2 @@\n def g():\n-    return 1\n+    return 2\n",
			want: map[string]string{"a.py": "def f():\n    return 1\n\ndef g():\n    return 2\n"}},
		{name: "unified without numbers", patch: "--- a.py\n+++ a.py\n@@ ... @@\n def f():\n-    return 1\n+    return 0\n",
			want: map[string]string{"a.py": "def f():\n    return 0\n\ndef g():\n    return 1\n"}},
		{name: "unified hint picks among exact", patch: "--- a/a.py\n+++ b/a.py\n@@ -5,1 +5,1 @@\n-    return 1\n+    return 5\n",
			want: map[string]string{"a.py": "def f():\n    return 1\n\ndef g():\n    return 5\n"}},
		{name: "unified ambiguous", patch: "--- a/a.py\n+++ b/a.py\n@@\n-    return 1\n+    return 5\n", err: "match 2 places"},
		{name: "unified new and deleted", patch: "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n--- a/b.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n",
			want: map[string]string{"n.txt": "hello\nworld\n"}},
		{name: "aider", patch: "a.py\n```python\n<<<<<<< SEARCH\ndef g():\n    return 1\n=======\ndef g():\n    return 7\n>>>>>>> REPLACE\n```\n\nb.txt\n```\n<<<<<<< SEARCH\ny\n=======\nz\n>>>>>>> REPLACE\n```\n",
			want: map[string]string{"a.py": "def f():\n    return 1\n\ndef g():\n    return 7\n", "b.txt": "x\nz\n"}},
		{name: "cline", patch: "------- SEARCH\nx\n=======\nX\n+++++++ REPLACE\n------- SEARCH\ny\n=======\nY\n+++++++ REPLACE\n",
			want: map[string]string{"b.txt": "X\nY\n"}},
		{name: "roo start line", patch: "<<<<<<< SEARCH\n:start_line:5\n-------\n    return 1\n=======\n    return 9\n>>>>>>> REPLACE\n",
			want: map[string]string{"a.py": "def f():\n    return 1\n\ndef g():\n    return 9\n"}},
		{name: "search ambiguous", patch: "a.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 9\n>>>>>>> REPLACE\n", err: "match 2 places"},
		{name: "search creates a file", patch: "new/c.txt\n<<<<<<< SEARCH\n=======\nfresh\n>>>>>>> REPLACE\n",
			want: map[string]string{"new/c.txt": "fresh\n"}},
		{name: "second block fails, none applied", patch: "b.txt\n<<<<<<< SEARCH\nx\n=======\nX\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nnope\n=======\nN\n>>>>>>> REPLACE\n", err: "hunk 2 of 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := ""
			switch tt.name {
			case "cline":
				def = "b.txt"
			case "roo start line":
				def = "a.py"
			}
			p, err := Parse(tt.patch, def)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
				c, ok := in[path]
				return c, ok, nil
			})
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range pl.Files {
				w, ok := tt.want[f.Path]
				if f.Delete {
					if ok {
						t.Errorf("%s deleted", f.Path)
					}
					continue
				}
				if f.After != w {
					t.Errorf("%s:\n%q\nwant\n%q", f.Path, f.After, w)
				}
			}
		})
	}
}

func TestSniff(t *testing.T) {
	for text, want := range map[string]Format{
		"*** Begin Patch\n":                    V4A,
		"intro\n--- a/x\n+++ b/x\n@@ -1 +1 @@": Unified,
		"x.go\n<<<<<<< SEARCH\n":               SearchReplace,
		"------- SEARCH\n":                     SearchReplace,
		"just prose":                           Unknown,
	} {
		if got := Sniff(text); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", text, got, want)
		}
	}
	_, err := Parse("hello", "")
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(prose): %v", err)
	}
}

// FuzzParsePatch: no input makes Parse or Plan panic, and a parsed patch always has files.
func FuzzParsePatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n-a\n+b\n*** End of File\n*** End Patch\n")
	f.Add("--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")
	f.Add("a\n<<<<<<< SEARCH\n:start_line:2\n-------\nb\n=======\nc\n>>>>>>> REPLACE\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text, "a")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(p.Files) == 0 {
			t.Fatal("a parsed patch without files")
		}
		_, _ = p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
			return "a\nb\n\tc\n", path == "a", nil
		})
	})
}
