package llmfs_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
)

// onlyReader hides every method of its reader but Read: a pipe, say.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// tempFile returns a file holding content, at offset 0.
func tempFile(t *testing.T, content string) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "src"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWriteFrom: a streaming write lands the content whole, is journaled with the new
// content's hash (a file over the undo bound is kept by hash alone) and undoes to the old
// content, from a file (read from its offset) and from a reader that cannot seek.
func TestWriteFrom(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 4<<10) // 64 KiB: over the undo bound below
	eachBackend(t, &llmfs.Options{UndoMaxFileBytes: 1 << 10}, func(t *testing.T, ws *llmfs.Workspace) {
		for _, tc := range []struct {
			name, want string
			src        func() io.Reader
		}{
			{"pipe", big, func() io.Reader { return onlyReader{strings.NewReader(big)} }},
			{"file", big[5:], func() io.Reader {
				f := tempFile(t, big)
				f.Seek(5, io.SeekStart)
				return f
			}},
			{"small", "small\n", func() io.Reader { return onlyReader{strings.NewReader("small\n")} }},
		} {
			p := tc.name + ".txt"
			put(t, ws, p, "old\n")
			res, err := ws.WriteFrom(bg, p, tc.src(), llmfs.WriteOptions{})
			noErr(t, err)
			if res.Bytes != int64(len(tc.want)) || res.Created {
				t.Errorf("%s: result %+v", tc.name, res)
			}
			if got := mustRaw(t, ws, p); got != tc.want {
				t.Fatalf("%s: file holds %d bytes, want %d", tc.name, len(got), len(tc.want))
			}
			changes, err := ws.History().List(bg, llmfs.HistoryFilter{Path: p})
			noErr(t, err)
			want := store.Version{Kind: store.File, Hash: store.Hash([]byte(tc.want)), Size: int64(len(tc.want))}
			if len(changes) == 0 || !changes[0].After.Equal(want) || changes[0].Op != llmfs.ChangeWrite {
				t.Fatalf("%s: newest change %+v, want after %+v", tc.name, changes, want)
			}
			if _, err := ws.History().Undo(bg, changes[0].ID); err != nil {
				t.Fatalf("%s: undo: %v", tc.name, err)
			}
			if got := mustRaw(t, ws, p); got != "old\n" {
				t.Errorf("%s: after undo the file holds %q", tc.name, got)
			}
		}
		// An append of a large stream to a file the journal kept.
		put(t, ws, "log.txt", "head\n")
		_, err := ws.WriteFrom(bg, "log.txt", onlyReader{strings.NewReader(big)}, llmfs.WriteOptions{Mode: llmfs.AppendTo})
		noErr(t, err)
		changes, err := ws.History().List(bg, llmfs.HistoryFilter{Path: "log.txt"})
		noErr(t, err)
		if whole := "head\n" + big; mustRaw(t, ws, "log.txt") != whole || changes[0].After.Hash != store.Hash([]byte(whole)) {
			t.Errorf("append: change %+v", changes[0])
		}
	})
}

// TestWriteFromRefused: the streaming write is refused as Write is (quota, deny rules,
// IfMatch), and nothing is written.
func TestWriteFromRefused(t *testing.T) {
	eachBackend(t, &llmfs.Options{Quota: llmfs.Quota{MaxFileBytes: 100}}, func(t *testing.T, ws *llmfs.Workspace) {
		put(t, ws, "a.txt", "one\n")
		_, err := ws.WriteFrom(bg, "a.txt", tempFile(t, strings.Repeat("x", 200)), llmfs.WriteOptions{})
		wantCode(t, err, llmfs.CodeQuotaExceeded)
		_, err = ws.WriteFrom(bg, "new/b.txt", onlyReader{strings.NewReader(strings.Repeat("x", 200))}, llmfs.WriteOptions{})
		wantCode(t, err, llmfs.CodeQuotaExceeded)
		if exists(ws, "new") {
			t.Error("the refused write left its parent behind")
		}
		_, err = ws.WriteFrom(bg, "a.txt", strings.NewReader("two\n"), llmfs.WriteOptions{IfMatch: store.Hash([]byte("other"))})
		wantCode(t, err, llmfs.CodeFileChanged)
		_, err = ws.WriteFrom(bg, ".env", strings.NewReader("SECRET=1\n"), llmfs.WriteOptions{})
		if err == nil {
			t.Error("a write to .env was let through")
		}
		if got := mustRaw(t, ws, "a.txt"); got != "one\n" {
			t.Errorf("a.txt holds %q after the refusals", got)
		}
		_, err = ws.WriteFrom(bg, "a.txt", strings.NewReader("two\n"), llmfs.WriteOptions{IfMatch: store.Hash([]byte("one\n"))})
		noErr(t, err)
		if got := mustRaw(t, ws, "a.txt"); got != "two\n" {
			t.Errorf("a.txt holds %q after a matching IfMatch", got)
		}
	})
}
