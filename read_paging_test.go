package llmfs_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// putRaw writes a file straight to the store, as another program would.
func putRaw(t *testing.T, ws *llmfs.Workspace, name, content string) {
	t.Helper()
	if _, err := ws.Store().WriteFile(context.Background(), name, strings.NewReader(content), store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// getRaw reads a whole file with ReadTo: no caps, bytes as they are.
func getRaw(t *testing.T, ws *llmfs.Workspace, name string) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := ws.ReadTo(context.Background(), name, llmfs.ReadOptions{Limit: llmfs.NoLimit}, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func lines(from, to int) string {
	var sb strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&sb, "line %d\n", i)
	}
	return sb.String()
}

func TestReadDefaultCap(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "big.txt", lines(1, 2500))
		res, err := ws.Read(ctx, "big.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Lines != 2000 || !res.Truncated || res.NextOffset != 2001 || res.TotalLines != 2500 {
			t.Errorf("Read = %d lines, truncated %v, next %d, total %d; want 2000, true, 2001, 2500", res.Lines, res.Truncated, res.NextOffset, res.TotalLines)
		}
		if res.Content != lines(1, 2000) {
			t.Errorf("Content is not lines 1-2000")
		}
		// The next page ends the file: no truncation.
		res, err = ws.Read(ctx, "big.txt", llmfs.ReadOptions{Offset: 2001, Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != lines(2001, 2500) || res.Truncated || res.NextOffset != 0 {
			t.Errorf("second page: %d lines, truncated %v, next %d", res.Lines, res.Truncated, res.NextOffset)
		}
		// A caller's limit is not a truncation.
		res, err = ws.Read(ctx, "big.txt", llmfs.ReadOptions{Offset: 10, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != lines(10, 14) || res.Truncated {
			t.Errorf("limited read: %q, truncated %v", res.Content, res.Truncated)
		}
	})
}

func TestReadLongLine(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		long := strings.Repeat("é", 2500) // 2500 characters, 5000 bytes
		putRaw(t, ws, "long.txt", "short\n"+long+"\nafter\n")
		res, err := ws.Read(context.Background(), "long.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		want := "short\n" + strings.Repeat("é", 2000) + " … [line cut: 5000 bytes in all]\nafter\n"
		if res.Content != want || res.CutLines != 1 || res.TotalLines != 3 {
			t.Errorf("Read = %q (cut %d, total %d)", res.Content, res.CutLines, res.TotalLines)
		}
		// A line longer than the read buffer, with CRLF.
		huge := strings.Repeat("x", 600000)
		putRaw(t, ws, "huge.txt", "a\r\n"+huge+"\r\nb")
		res, err = ws.Read(context.Background(), "huge.txt", llmfs.ReadOptions{Offset: 2, Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		want = strings.Repeat("x", 2000) + " … [line cut: 600000 bytes in all]\r\nb"
		if res.Content != want || res.CutLines != 1 || res.TotalLines != 3 {
			t.Errorf("Read(huge) = %.40q...%q (cut %d, total %d)", res.Content, res.Content[max(len(res.Content)-50, 0):], res.CutLines, res.TotalLines)
		}
	})
}

func TestReadBinaryAndUTF8(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "bin", "PK\x03\x04\x00\x00rest")
		_, err := ws.Read(ctx, "bin", llmfs.ReadOptions{})
		if llmfs.CodeOf(err) != llmfs.CodeBinaryFile {
			t.Errorf("Read(binary) = %v, want BINARY_FILE", err)
		}
		if _, err := ws.ReadTo(ctx, "bin", llmfs.ReadOptions{}, &bytes.Buffer{}); llmfs.CodeOf(err) != llmfs.CodeBinaryFile {
			t.Errorf("ReadTo(binary) = %v, want BINARY_FILE", err)
		}
		if _, err := ws.Edit(ctx, "bin", "PK", "QK", false); llmfs.CodeOf(err) != llmfs.CodeBinaryFile {
			t.Errorf("Edit(binary) = %v, want BINARY_FILE", err)
		}
		// A NUL byte past the sniffed block does not make a file binary.
		putRaw(t, ws, "late-nul.txt", strings.Repeat("a", 9000)+"\x00\n")
		if _, err := ws.Read(ctx, "late-nul.txt", llmfs.ReadOptions{}); err != nil {
			t.Errorf("Read(late NUL) = %v", err)
		}
		putRaw(t, ws, "latin1.txt", "caf\xe9\nok\n")
		res, err := ws.Read(ctx, "latin1.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "caf\uFFFD\nok\n" || !res.InvalidUTF8 {
			t.Errorf("Read(latin1) = %q, invalid %v", res.Content, res.InvalidUTF8)
		}
		// ReadTo is a person's read: bytes as they are.
		if got := getRaw(t, ws, "latin1.txt"); got != "caf\xe9\nok\n" {
			t.Errorf("ReadTo(latin1) = %q", got)
		}
	})
}

func TestReadLineEndings(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		putRaw(t, ws, "crlf.txt", "\uFEFFa\r\nb\r\nc")
		res, err := ws.Read(ctx, "crlf.txt", llmfs.ReadOptions{Offset: 2, Limit: llmfs.NoLimit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "b\r\nc" || res.TotalLines != 3 || res.Lines != 2 {
			t.Errorf("Read = %q (%d of %d lines)", res.Content, res.Lines, res.TotalLines)
		}
		putRaw(t, ws, "empty.txt", "")
		res, err = ws.Read(ctx, "empty.txt", llmfs.ReadOptions{})
		if err != nil || res.Content != "" || res.TotalLines != 0 {
			t.Errorf("Read(empty) = %+v, %v", res, err)
		}
	})
}

// TestReadToRanges checks the streaming read against the lines it must print, across
// buffer boundaries.
func TestReadToRanges(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, ws *llmfs.Workspace) {
		ctx := context.Background()
		const n = 100000 // about 1.2 MB: several buffers
		all := lines(1, n)
		putRaw(t, ws, "f.txt", all)
		putRaw(t, ws, "nonl.txt", "a\nb")
		type test struct {
			name          string
			offset, limit int
			want          string
			wantN         int
		}
		tests := []test{
			{"f.txt", 1, llmfs.NoLimit, all, n},
			{"f.txt", 50000, 3, lines(50000, 50002), 3},
			{"f.txt", n, 10, lines(n, n), 1},
			{"f.txt", n + 1, 10, "", 0},
			{"nonl.txt", 2, llmfs.NoLimit, "b", 1},
			{"nonl.txt", 1, 1, "a\n", 1},
		}
		for _, tc := range tests {
			var buf bytes.Buffer
			got, err := ws.ReadTo(ctx, tc.name, llmfs.ReadOptions{Offset: tc.offset, Limit: tc.limit}, &buf)
			if err != nil || buf.String() != tc.want || got != tc.wantN {
				t.Errorf("ReadTo(%s, %d, %d) = %d, %v, %d bytes; want %d lines, %d bytes", tc.name, tc.offset, tc.limit, got, err, buf.Len(), tc.wantN, len(tc.want))
			}
		}
	})
}

// TestReadMatchesReference compares Read and ReadTo with a plain split of the file, for
// random files of a few buffers with lines of every length (empty, CRLF, longer than a
// buffer, no final newline) and random ranges.
func TestReadMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		n := rng.IntN(200)
		if rng.IntN(500) == 0 {
			n = 300 << 10 // longer than the read buffer
		}
		sb.WriteString(strings.Repeat(string(rune('a'+rng.IntN(26))), n))
		if rng.IntN(4) == 0 {
			sb.WriteString("\r\n")
		} else {
			sb.WriteString("\n")
		}
	}
	sb.WriteString("no final newline")
	content := sb.String()
	ref := strings.SplitAfter(content, "\n")
	ctx := context.Background()
	ws := llmfs.New(mem.New(), &llmfs.Options{Limits: llmfs.Limits{MaxReadLines: 1 << 30, MaxReadBytes: 1 << 30, MaxLineLength: -1}})
	putRaw(t, ws, "f", content)
	for range 200 {
		offset := 1 + rng.IntN(len(ref)+2)
		limit := rng.IntN(len(ref) / 2)
		if rng.IntN(5) == 0 {
			limit = llmfs.NoLimit
		}
		end := len(ref)
		if limit != llmfs.NoLimit {
			end = min(offset-1+limit, len(ref))
		}
		want := ""
		if offset-1 < len(ref) {
			want = strings.Join(ref[offset-1:end], "")
		}
		res, err := ws.Read(ctx, "f", llmfs.ReadOptions{Offset: offset, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != want || res.TotalLines != len(ref) {
			t.Fatalf("Read(%d, %d): %d bytes, %d lines in all; want %d bytes, %d lines", offset, limit, len(res.Content), res.TotalLines, len(want), len(ref))
		}
		var buf bytes.Buffer
		if _, err := ws.ReadTo(ctx, "f", llmfs.ReadOptions{Offset: offset, Limit: limit}, &buf); err != nil || buf.String() != want {
			t.Fatalf("ReadTo(%d, %d): %d bytes, %v; want %d bytes", offset, limit, buf.Len(), err, len(want))
		}
	}
}

// Issue 13.13: a read past the end returned an empty content that reads as an empty
// file. The result says so, in one sentence every face uses.
func TestReadPastTheEndSaysSo(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", strings.Repeat("line\n", 21))
		put(t, w, "one.txt", "x")
		put(t, w, "empty.txt", "")
		for _, tt := range []struct {
			p      string
			offset int
			note   string
		}{
			{"f.txt", 500, "offset 500 is past the end; the file has 21 lines"},
			{"f.txt", 22, "offset 22 is past the end; the file has 21 lines"},
			{"f.txt", 21, ""},
			{"one.txt", 2, "offset 2 is past the end; the file has 1 line"},
			{"empty.txt", 1, ""},
			{"empty.txt", 2, "offset 2 is past the end; the file has 0 lines"},
		} {
			res, err := w.Read(bg, tt.p, llmfs.ReadOptions{Offset: tt.offset})
			noErr(t, err)
			if got := res.PastEndNote(); got != tt.note || res.PastEnd() != (tt.note != "") {
				t.Errorf("%s offset %d: note %q, want %q", tt.p, tt.offset, got, tt.note)
			}
		}
	})
}
