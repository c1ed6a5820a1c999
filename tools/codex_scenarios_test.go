//go:build !js && !wasip1

package tools_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/sql/sqltest"
	"github.com/llmfs/llmfs/tools"
)

// scenario is one case of the scenario suite of Codex's apply_patch (its
// tests/fixtures/scenarios: a tree before, the patch, the tree after), restated: want nil
// means the call fails with code and the tree stays as it was.
type scenario struct {
	name  string
	in    map[string]string
	patch string
	want  map[string]string
	code  llmfs.Code
}

func scenarioPatch(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }

var codexScenarios = []scenario{
	{name: "001 add a file", in: map[string]string{},
		patch: scenarioPatch("*** Add File: notes.md\n+a new file\n"),
		want:  map[string]string{"notes.md": "a new file\n"}},
	{name: "002 add, delete and update at once",
		in:    map[string]string{"drop.txt": "bye\n", "edit.txt": "alpha\nbeta\n"},
		patch: scenarioPatch("*** Add File: deep/dir/made.txt\n+made\n*** Delete File: drop.txt\n*** Update File: edit.txt\n@@\n alpha\n-beta\n+gamma\n"),
		want:  map[string]string{"deep/dir/made.txt": "made\n", "edit.txt": "alpha\ngamma\n"}},
	{name: "003 two chunks in one file", in: map[string]string{"m.txt": "a\nb\nc\nd\ne\n"},
		patch: scenarioPatch("*** Update File: m.txt\n@@\n a\n-b\n+B\n@@\n d\n-e\n+E\n"),
		want:  map[string]string{"m.txt": "a\nB\nc\nd\nE\n"}},
	{name: "004 move into a directory that does not exist", in: map[string]string{"src/x.txt": "x\n", "src/y.txt": "y\n"},
		patch: scenarioPatch("*** Update File: src/x.txt\n*** Move to: dst/sub/x.txt\n@@\n-x\n+x moved\n"),
		want:  map[string]string{"src/y.txt": "y\n", "dst/sub/x.txt": "x moved\n"}},
	{name: "005 a patch naming no file", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch(""), code: llmfs.CodeInvalidArgument},
	{name: "006 context that is not in the file", in: map[string]string{"k.txt": "one\ntwo\n"},
		patch: scenarioPatch("*** Update File: k.txt\n@@\n-three\n+3\n"), code: llmfs.CodePatternNotFound},
	{name: "007 deleting a file that is not there", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Delete File: nothere.txt\n"), code: llmfs.CodeFileNotFound},
	{name: "008 an update without chunks", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Update File: k.txt\n"), code: llmfs.CodeInvalidArgument},
	{name: "009 updating a file that is not there", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Update File: nothere.txt\n@@\n-a\n+b\n"), code: llmfs.CodeFileNotFound},
	{name: "010 a move replaces the file at its destination",
		in:    map[string]string{"from/f.txt": "mine\n", "to/f.txt": "theirs\n"},
		patch: scenarioPatch("*** Update File: from/f.txt\n*** Move to: to/f.txt\n@@\n-mine\n+mine, moved\n"),
		want:  map[string]string{"to/f.txt": "mine, moved\n"}},
	{name: "011 adding a file that exists replaces it", in: map[string]string{"d.txt": "before\n"},
		patch: scenarioPatch("*** Add File: d.txt\n+after\n"),
		want:  map[string]string{"d.txt": "after\n"}},
	{name: "012 deleting a directory fails", in: map[string]string{"folder/inside.txt": "in\n"},
		patch: scenarioPatch("*** Delete File: folder\n"), code: llmfs.CodeInvalidPath},
	{name: "013 a header that is no header", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Change File: k.txt\n"), code: llmfs.CodeInvalidArgument},
	// 014: Codex writes a final newline the file lacked; llmfs keeps the file's bytes as
	// they are, a missing final newline included.
	{name: "014 a file without a final newline keeps it so", in: map[string]string{"n.txt": "last line"},
		patch: scenarioPatch("*** Update File: n.txt\n@@\n-last line\n+new last\n"),
		want:  map[string]string{"n.txt": "new last"}},
	// 015: Codex keeps what the patch did before the hunk that failed; llmfs changes all
	// the files or none.
	{name: "015 a failure after a success changes nothing", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Add File: early.txt\n+early\n*** Update File: k.txt\n@@\n-zzz\n+k2\n"), code: llmfs.CodePatternNotFound},
	{name: "016 a chunk that only adds lines", in: map[string]string{"p.txt": "one\ntwo\n"},
		patch: scenarioPatch("*** Update File: p.txt\n@@\n+three\n+four\n"),
		want:  map[string]string{"p.txt": "one\ntwo\nthree\nfour\n"}},
	{name: "017 a file header with spaces around it", in: map[string]string{"h.txt": "a\n"},
		patch: scenarioPatch("  *** Update File: h.txt  \n@@\n-a\n+b\n"),
		want:  map[string]string{"h.txt": "b\n"}},
	{name: "018 begin and end markers with spaces around them", in: map[string]string{"h.txt": "a\n"},
		patch: "  *** Begin Patch\n*** Update File: h.txt\n@@\n-a\n+b\n*** End Patch  \n",
		want:  map[string]string{"h.txt": "b\n"}},
	{name: "019 non-ASCII text", in: map[string]string{"u.txt": "Grüße\nZürich – Genève\n"},
		patch: scenarioPatch("*** Update File: u.txt\n@@\n Grüße\n-Zürich – Genève\n+Zürich → Genève ✓\n"),
		want:  map[string]string{"u.txt": "Grüße\nZürich → Genève ✓\n"}},
	{name: "020 deleting a file", in: map[string]string{"stay.txt": "s\n", "go.txt": "g\n"},
		patch: scenarioPatch("*** Delete File: go.txt\n"),
		want:  map[string]string{"stay.txt": "s\n"}},
	{name: "021 a chunk that only removes lines", in: map[string]string{"r.txt": "1\n2\n3\n4\n"},
		patch: scenarioPatch("*** Update File: r.txt\n@@\n 1\n-2\n-3\n 4\n"),
		want:  map[string]string{"r.txt": "1\n4\n"}},
	{name: "022 a chunk anchored at the end of the file", in: map[string]string{"e.txt": "x\ny\nx\ny\n"},
		patch: scenarioPatch("*** Update File: e.txt\n@@\n x\n-y\n+Y\n*** End of File\n"),
		want:  map[string]string{"e.txt": "x\ny\nx\nY\n"}},
	// Issue 32.7: Codex's test_pure_addition_chunk_followed_by_removal (lib.rs): a chunk of
	// only added lines goes to the end of the file without moving the place where the next
	// chunk is looked for.
	{name: "lib.rs a chunk that only adds lines, then an edit", in: map[string]string{"panic.txt": "line1\nline2\nline3\n"},
		patch: scenarioPatch("*** Update File: panic.txt\n@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement\n"),
		want:  map[string]string{"panic.txt": "line1\nline2-replacement\nafter-context\nsecond-line\n"}},
	// Issue 31.8: a second add of one path would silently drop the first; refused, nothing written.
	{name: "023 two adds of one path", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Add File: twice.txt\n+first\n*** Add File: twice.txt\n+second\n"), code: llmfs.CodeInvalidArgument},
	{name: "024 an add after an update of the file", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Update File: k.txt\n@@\n-k\n+K\n*** Add File: k.txt\n+again\n"), code: llmfs.CodeInvalidArgument},
	{name: "025 a delete then an add replaces the file", in: map[string]string{"k.txt": "k\n"},
		patch: scenarioPatch("*** Delete File: k.txt\n*** Add File: k.txt\n+new\n"),
		want:  map[string]string{"k.txt": "new\n"}},
}

// Issue 17.1, 17.3: Codex's apply_patch scenarios, each through the codex dialect's
// apply_patch tool on a real directory and on SQLite, comparing the whole tree byte for byte
// after the call (and, for a failure, the code and a tree left as it was).
func TestApplyPatchScenarios(t *testing.T) {
	for _, back := range []struct {
		name string
		open func(t *testing.T) (*llmfs.Workspace, func() map[string]string)
	}{
		{"osdir", func(t *testing.T) (*llmfs.Workspace, func() map[string]string) {
			dir := t.TempDir()
			ws, err := host.Open(&llmfs.Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			return ws, func() map[string]string { return diskTree(t, dir) }
		}},
		{"sqlite", func(t *testing.T) (*llmfs.Workspace, func() map[string]string) {
			ws := llmfs.New(sqltest.Workspace(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"), "tools"), nil)
			return ws, func() map[string]string { return storeTree(t, ws) }
		}},
	} {
		for _, sc := range codexScenarios {
			t.Run(back.name+"/"+sc.name, func(t *testing.T) {
				ctx := context.Background()
				ws, tree := back.open(t)
				for _, p := range slices.Sorted(maps.Keys(sc.in)) {
					if _, err := ws.Write(ctx, p, sc.in[p], llmfs.WriteOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				tb, err := tools.New(ws, tools.Codex)
				if err != nil {
					t.Fatal(err)
				}
				args, _ := json.Marshal(map[string]string{"input": sc.patch})
				out, err := tb.Call(ctx, "apply_patch", args)
				want := sc.want
				if sc.want == nil {
					if llmfs.CodeOf(err) != sc.code {
						t.Fatalf("result %s, error %v; want %s", out, err, sc.code)
					}
					want = sc.in
				} else if err != nil {
					t.Fatal(err)
				}
				if got := tree(); !maps.Equal(got, want) {
					t.Errorf("tree after the call:\n%v\nwant\n%v", got, want)
				}
			})
		}
	}
}

// diskTree reads every regular file below dir, by slash path.
func diskTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// storeTree reads every file of ws's store, by path.
func storeTree(t *testing.T, ws *llmfs.Workspace) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	s := ws.Store()
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := s.ReadDir(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := strings.TrimPrefix(dir+"/"+e.Name(), "./")
			if e.IsDir() {
				walk(name)
				continue
			}
			f, err := s.Open(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[name] = string(b)
		}
	}
	walk(".")
	return out
}
