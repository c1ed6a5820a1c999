package llmfs_test

import (
	"context"
	"testing"

	"github.com/llmfs/llmfs"
)

func TestReadBeforeEdit(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "a.txt", "one\ntwo\nthree\n")
		wantCode := func(err error, code llmfs.Code, what string) {
			t.Helper()
			if llmfs.CodeOf(err) != code {
				t.Errorf("%s = %v, want %s", what, err, code)
			}
		}
		_, err := ws.Edit(ctx, "a.txt", "one", "1", false)
		wantCode(err, llmfs.CodeFileNotRead, "Edit before any read")
		if e, _ := err.(*llmfs.Error); e == nil || e.Msg != "a.txt exists but has not been read in this session. Read it first (a read of any part of it counts), then retry." {
			t.Errorf("message = %v", err)
		}
		_, err = ws.Write(ctx, "a.txt", "x", llmfs.WriteOptions{})
		wantCode(err, llmfs.CodeFileNotRead, "overwrite before any read")
		// Appending and creating need no read.
		if _, err := ws.Write(ctx, "a.txt", "four\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Errorf("append = %v", err)
		}
		if _, err := ws.Write(ctx, "new.txt", "n\n", llmfs.WriteOptions{Mode: llmfs.Create}); err != nil {
			t.Errorf("create = %v", err)
		}
		// A paged read of one line counts as a read of the file.
		if _, err := ws.Read(ctx, "a.txt", llmfs.ReadOptions{Offset: 3, Limit: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Edit(ctx, "a.txt", "one", "1", false); err != nil {
			t.Errorf("Edit after a paged read = %v", err)
		}
		// A session's own edit keeps its knowledge current.
		if _, err := ws.Edit(ctx, "a.txt", "two", "2", false); err != nil {
			t.Errorf("second Edit = %v", err)
		}
		// Someone else changes the file.
		putRaw(t, ws, "a.txt", "changed\n")
		_, err = ws.Edit(ctx, "a.txt", "three", "3", false)
		wantCode(err, llmfs.CodeFileChanged, "Edit after an outside change")
		if e, _ := err.(*llmfs.Error); e == nil || e.Msg != "a.txt has changed since this session last read it (someone else wrote it). Read it again, then retry with the current content." {
			t.Errorf("message = %v", err)
		}
		_, err = ws.Write(ctx, "a.txt", "x", llmfs.WriteOptions{})
		wantCode(err, llmfs.CodeFileChanged, "overwrite after an outside change")
		if got := getRaw(t, ws, "a.txt"); got != "changed\n" {
			t.Errorf("refused writes changed the file: %q", got)
		}
		// Another session has read nothing; a virtual view shares this session.
		other := ws.With(llmfs.NewSession())
		_, err = other.Edit(ctx, "a.txt", "changed", "c", false)
		wantCode(err, llmfs.CodeFileNotRead, "Edit in a new session")
		if _, err := ws.Read(ctx, "a.txt", llmfs.ReadOptions{Limit: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.With(llmfs.VirtualPaths()).Edit(ctx, "/a.txt", "changed", "c", false); err != nil {
			t.Errorf("Edit through the virtual view after a read = %v", err)
		}
		// Switched off, nothing is required.
		if _, err := other.With(llmfs.RequireRead(false)).Edit(ctx, "a.txt", "c", "d", false); err != nil {
			t.Errorf("Edit with RequireRead(false) = %v", err)
		}
		// A moved file keeps what the session knew of it.
		if _, err := ws.Read(ctx, "new.txt", llmfs.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Move(ctx, "new.txt", "moved.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Edit(ctx, "moved.txt", "n", "m", false); err != nil {
			t.Errorf("Edit after Move = %v", err)
		}
	})
}

// TestReadBeforeOverwriteBigFile: a read of a file over the edit limit skips the store's
// hash; an overwrite still checks the content and writes conditionally.
func TestReadBeforeOverwriteBigFile(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true, Limits: llmfs.Limits{MaxEditBytes: 8}}, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "big.txt", "more than eight bytes\n")
		res, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Hash != "" {
			t.Errorf("Hash = %q for a file over the edit limit, want none", res.Hash)
		}
		if _, err := ws.Write(ctx, "big.txt", "new content\n", llmfs.WriteOptions{}); err != nil {
			t.Errorf("overwrite after a read = %v", err)
		}
		putRaw(t, ws, "big.txt", "changed by someone else\n")
		if _, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: 1}); err != nil {
			t.Fatal(err)
		}
		putRaw(t, ws, "big.txt", "changed again by someone\n")
		_, err = ws.Write(ctx, "big.txt", "mine\n", llmfs.WriteOptions{})
		if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
			t.Errorf("overwrite after an outside change = %v, want FILE_CHANGED", err)
		}
		if got := getRaw(t, ws, "big.txt"); got != "changed again by someone\n" {
			t.Errorf("file = %q", got)
		}
		// Small files get the store's hash.
		putRaw(t, ws, "small", "abc\n")
		if res, err := ws.Read(ctx, "small", llmfs.ReadOptions{}); err != nil || len(res.Hash) != 64 {
			t.Errorf("Read(small) = %v, hash %q", err, res.Hash)
		}
	})
}

// An append to a file changed since the session read it must not make the session's
// knowledge cover the other writer's change: a later overwrite still fails.
func TestReadBeforeEditAppendAfterOutsideChange(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, ws *llmfs.Workspace) {
		putRaw(t, ws, "a.txt", "one\n")
		readAll(t, ws, "a.txt")
		putRaw(t, ws, "a.txt", "theirs\n")
		if _, err := ws.Write(bg, "a.txt", "more\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Fatal(err)
		}
		_, err := ws.Write(bg, "a.txt", "mine\n", llmfs.WriteOptions{})
		if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
			t.Errorf("overwrite after appending to a file changed by someone else = %v, want %s", err, llmfs.CodeFileChanged)
		}
		_, err = ws.Edit(bg, "a.txt", "theirs", "x", false)
		if llmfs.CodeOf(err) != llmfs.CodeFileChanged {
			t.Errorf("edit after appending to a file changed by someone else = %v, want %s", err, llmfs.CodeFileChanged)
		}
		// Its own appends to a file it knows keep its knowledge current.
		readAll(t, ws, "a.txt")
		if _, err := ws.Write(bg, "a.txt", "last\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Edit(bg, "a.txt", "last", "final", false); err != nil {
			t.Errorf("edit after the session's own append = %v", err)
		}
	})
}

// A file the session made by appending is known to it, as one it made in create mode is.
func TestReadBeforeEditAppendCreates(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, ws *llmfs.Workspace) {
		if _, err := ws.Write(bg, "log.txt", "one\n", llmfs.WriteOptions{Mode: llmfs.AppendTo}); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Edit(bg, "log.txt", "one", "1", false); err != nil {
			t.Errorf("edit of a file the session created by appending = %v", err)
		}
	})
}
