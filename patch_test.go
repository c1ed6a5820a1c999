package llmfs_test

import (
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
)

// Issue 17.3: a patch over several files is one transaction on every backend: when a hunk
// of the last file fails, the files before it are untouched.
func TestPatchAllOrNothing(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\ntwo\n")
		put(t, w, "b.txt", "three\n")
		const bad = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: c/new.txt\n+new\n*** Update File: b.txt\n@@\n-thre\n+FOUR\n*** End Patch\n"
		_, err := w.Patch(bg, bad, llmfs.PatchOptions{})
		wantCode(t, err, llmfs.CodePatternNotFound)
		if !strings.Contains(err.Error(), "b.txt: hunk 1 of 1") || !strings.Contains(err.Error(), "nearest text is at line 1") {
			t.Errorf("the error does not name the hunk and the nearest text: %v", err)
		}
		if got := mustRaw(t, w, "a.txt"); got != "one\ntwo\n" {
			t.Errorf("a.txt changed: %q", got)
		}
		if _, ok := raw(t, w, "c/new.txt"); ok {
			t.Error("c/new.txt was created")
		}

		const good = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: c/new.txt\n+new\n*** Update File: b.txt\n*** Move to: d/b.txt\n@@\n-three\n+THREE\n*** End Patch\n"
		res, err := w.Patch(bg, good, llmfs.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The move is one entry, a rename (issue 32.7).
		if res.Format != "v4a" || len(res.Files) != 3 || res.Files[2].Op != "rename" {
			t.Errorf("result %+v", res)
		}
		for p, want := range map[string]string{"a.txt": "ONE\ntwo\n", "c/new.txt": "new\n", "d/b.txt": "THREE\n"} {
			if got := mustRaw(t, w, p); got != want {
				t.Errorf("%s = %q, want %q", p, got, want)
			}
		}
		if _, ok := raw(t, w, "b.txt"); ok {
			t.Error("b.txt was not moved away")
		}
	})
}

// Issue 17.3: a failure while writing (here the per-file quota, checked at the write)
// puts back the files already written.
func TestPatchRollsBackOnWriteFailure(t *testing.T) {
	eachBackend(t, &llmfs.Options{Quota: llmfs.Quota{MaxFileBytes: 16}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "a.txt", "one\n")
		put(t, w, "gone.txt", "bye\n")
		big := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** Delete File: gone.txt\n*** Add File: big.txt\n+" + strings.Repeat("x", 40) + "\n*** End Patch\n"
		_, err := w.Patch(bg, big, llmfs.PatchOptions{})
		wantCode(t, err, llmfs.CodeQuotaExceeded)
		if got := mustRaw(t, w, "a.txt"); got != "one\n" {
			t.Errorf("a.txt = %q after a failed patch", got)
		}
		if got := mustRaw(t, w, "gone.txt"); got != "bye\n" {
			t.Errorf("gone.txt = %q after a failed patch", got)
		}
		if _, ok := raw(t, w, "big.txt"); ok {
			t.Error("big.txt exists")
		}
	})
}

// Issue 17.3: with read tracking, a patch is compare-and-swap against what the session
// read: a file changed since is FILE_CHANGED and nothing is written.
func TestPatchCompareAndSwap(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, w *llmfs.Workspace) {
		setup := w.With(llmfs.NewSession())
		put(t, setup, "a.txt", "one\n")
		put(t, setup, "b.txt", "two\n")
		const p = "--- a/a.txt\n+++ b/a.txt\n@@\n-one\n+1\n--- a/b.txt\n+++ b/b.txt\n@@\n-two\n+2\n"
		if _, err := w.Read(bg, "a.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := w.Patch(bg, p, llmfs.PatchOptions{})
		wantCode(t, err, llmfs.CodeFileNotRead)
		if _, err := w.Read(bg, "b.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		other := w.With(llmfs.NewSession())
		if _, err := other.Read(bg, "b.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := other.Write(bg, "b.txt", "two\n2b\n", llmfs.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err = w.Patch(bg, p, llmfs.PatchOptions{})
		wantCode(t, err, llmfs.CodeFileChanged)
		if got := mustRaw(t, w, "a.txt"); got != "one\n" {
			t.Errorf("a.txt = %q", got)
		}
		if _, err := w.Read(bg, "b.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		res, err := w.Patch(bg, p, llmfs.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := mustRaw(t, w, "b.txt"); got != "2\n2b\n" || len(res.Files) != 2 {
			t.Errorf("b.txt = %q, result %+v", got, res)
		}
	})
}

// Issue 17.2: SEARCH/REPLACE blocks without a file name apply to PatchOptions.Path, and a
// read-only workspace refuses any patch.
func TestPatchSearchReplaceDefaultPath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.go", "package f\n\nfunc A() int {\n\treturn 1\n}\n")
		res, err := w.Patch(bg, "<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n", llmfs.PatchOptions{Path: "f.go"})
		if err != nil {
			t.Fatal(err)
		}
		if got := mustRaw(t, w, "f.go"); got != "package f\n\nfunc A() int {\n\treturn 2\n}\n" {
			t.Errorf("f.go = %q", got)
		}
		if len(res.Files) != 1 || len(res.Files[0].Matched) != 1 || res.Files[0].Matched[0] != llmfs.MatchIndent {
			t.Errorf("result %+v", res)
		}
		_, err = w.Patch(bg, "no patch here", llmfs.PatchOptions{})
		wantCode(t, err, llmfs.CodeInvalidArgument)
	})
}
