package llmfs_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/llmfs/llmfs"
)

func TestFileRead_KeepsCRLFAndFinalNewline(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, content := range []string{
			"one\r\ntwo\r\n",
			"one\r\ntwo",
			"one\ntwo\n",
			"one\ntwo",
			"mixed\r\nends\nhere\r\n",
			"\r\n\r\n",
			"lone\rcarriage\r",
			"\n",
		} {
			put(t, w, "f.txt", content)
			if res := readAll(t, w, "f.txt"); res.Content != content {
				t.Errorf("Read of %q = %q", content, res.Content)
			}
		}
		// A window keeps the endings of the lines it holds.
		put(t, w, "f.txt", "a\r\nb\r\nc\r\n")
		res, err := w.Read(bg, "f.txt", llmfs.ReadOptions{Offset: 2, Limit: 1})
		noErr(t, err)
		if res.Content != "b\r\n" {
			t.Errorf("line 2 of a CRLF file = %q, want %q", res.Content, "b\r\n")
		}
	})
}

func TestFileRead_TotalLines(t *testing.T) {
	tests := []struct {
		content string
		want    int
	}{
		{"", 0},
		{"a", 1},
		{"a\n", 1},
		{"a\nb", 2},
		{"a\nb\n", 2},
		{"\n", 1},
		{"\n\n", 2},
		{"a\r\nb", 2},
		{"a\r\nb\r\n", 2},
		{"a\rb\r", 1},
		{strings.Repeat("x\n", 5000), 5000},
	}
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, tt := range tests {
			put(t, w, "f.txt", tt.content)
			for _, opts := range []llmfs.ReadOptions{{Limit: llmfs.NoLimit}, {Limit: 0}, {Offset: 3, Limit: 1}, {Offset: 99999, Limit: 5}} {
				res, err := w.Read(bg, "f.txt", opts)
				noErr(t, err)
				if res.TotalLines != tt.want {
					t.Errorf("TotalLines of %.20q with %+v = %d, want %d", tt.content, opts, res.TotalLines, tt.want)
				}
			}
		}
	})
}

func TestFileRead_OffsetLimit(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	lines := func(from, to int) string {
		var s strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&s, "line %d\n", i)
		}
		return s.String()
	}
	tests := []struct {
		offset, limit int
		want          string
		lines         int
	}{
		{0, llmfs.NoLimit, lines(1, 10), 10},
		{1, llmfs.NoLimit, lines(1, 10), 10},
		{3, 2, lines(3, 4), 2},
		{1, 1, lines(1, 1), 1},
		{10, 5, lines(10, 10), 1},
		{5, llmfs.NoLimit, lines(5, 10), 6},
		{1, 0, "", 0},
		{7, 0, "", 0},
		{11, 3, "", 0},
		{1000, llmfs.NoLimit, "", 0},
		{1, 100, lines(1, 10), 10},
	}
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", b.String())
		for _, tt := range tests {
			res, err := w.Read(bg, "f.txt", llmfs.ReadOptions{Offset: tt.offset, Limit: tt.limit})
			noErr(t, err)
			wantOffset := max(tt.offset, 1)
			if res.Content != tt.want || res.Lines != tt.lines || res.Offset != wantOffset || res.TotalLines != 10 {
				t.Errorf("Read(offset %d, limit %d) = %q lines %d offset %d total %d; want %q lines %d offset %d total 10",
					tt.offset, tt.limit, res.Content, res.Lines, res.Offset, res.TotalLines, tt.want, tt.lines, wantOffset)
			}
			if res.Truncated {
				t.Errorf("Read(offset %d, limit %d) reports truncation of a short file", tt.offset, tt.limit)
			}
		}
	})
}

func TestFileRead_OffsetAndLimitValidated(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "a\n")
		for _, opts := range []llmfs.ReadOptions{{Offset: -1}, {Offset: -100, Limit: 1}, {Limit: -2}, {Offset: 1, Limit: -5}} {
			_, err := w.Read(bg, "f.txt", opts)
			wantCode(t, err, llmfs.CodeInvalidArgument)
		}
	})
}

func TestFileRead_MustBeRegularFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "x")
		for _, p := range []string{"d", ".", "/"} {
			_, err := w.Read(bg, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		_, err := w.Read(bg, "missing.txt", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		wantCode(t, err, llmfs.CodeFileNotFound)
		_, err = w.Read(bg, "d/f.txt/below", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Read(bg, "", llmfs.ReadOptions{Limit: llmfs.NoLimit})
		wantCode(t, err, llmfs.CodeInvalidPath)
	})
}

func TestFileRead_ReturnsAbsolutePath(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "d/f.txt", "x")
		for _, p := range []string{"d/f.txt", "./d/../d/f.txt", abs(w, "d/f.txt")} {
			if res := readAll(t, w, p); res.Path != abs(w, "d/f.txt") {
				t.Errorf("Read(%q).Path = %q, want %q", p, res.Path, abs(w, "d/f.txt"))
			}
		}
	})
}

func TestFileRead_EmptyFile(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "empty", "")
		res := readAll(t, w, "empty")
		if res.Content != "" || res.TotalLines != 0 || res.Lines != 0 || res.Truncated || res.Size != 0 {
			t.Errorf("Read(empty) = %+v", res)
		}
	})
}

// TestFileRead_LineCapTruncates checks that a read without a limit stops at the line cap
// and says where to go on, and that going on reaches the end.
func TestFileRead_LineCapTruncates(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 4500; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "big.txt", b.String())
		var got strings.Builder
		offset, reads := 1, 0
		for {
			res, err := w.Read(bg, "big.txt", llmfs.ReadOptions{Offset: offset, Limit: llmfs.NoLimit})
			noErr(t, err)
			reads++
			got.WriteString(res.Content)
			if res.TotalLines != 4500 {
				t.Fatalf("TotalLines = %d", res.TotalLines)
			}
			if !res.Truncated {
				if res.NextOffset != 0 {
					t.Errorf("NextOffset %d without truncation", res.NextOffset)
				}
				break
			}
			if res.Lines != llmfs.DefaultMaxReadLines || res.NextOffset != offset+res.Lines {
				t.Fatalf("truncated read at %d: %d lines, NextOffset %d", offset, res.Lines, res.NextOffset)
			}
			offset = res.NextOffset
		}
		if reads != 3 || got.String() != b.String() {
			t.Errorf("%d reads reassembled %d bytes, want 3 reads and %d bytes", reads, got.Len(), b.Len())
		}
		// An explicit limit is the caller's: no truncation is reported.
		res, err := w.Read(bg, "big.txt", llmfs.ReadOptions{Limit: 10})
		noErr(t, err)
		if res.Truncated || res.Lines != 10 {
			t.Errorf("Read(limit 10): truncated %v, %d lines", res.Truncated, res.Lines)
		}
		// A file of exactly the cap is not truncated.
		put(t, w, "exact.txt", strings.Repeat("x\n", llmfs.DefaultMaxReadLines))
		if res := readAll(t, w, "exact.txt"); res.Truncated || res.Lines != llmfs.DefaultMaxReadLines {
			t.Errorf("Read of a file at the cap: truncated %v, %d lines", res.Truncated, res.Lines)
		}
	})
}

// TestFileRead_ByteCapTruncates checks the 256 KiB cap: whole lines only, reported, and
// resumable.
func TestFileRead_ByteCapTruncates(t *testing.T) {
	line := strings.Repeat("y", 999) + "\n"
	content := strings.Repeat(line, 1000) // 1,000,000 bytes in 1000 lines
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "wide.txt", content)
		res := readAll(t, w, "wide.txt")
		if !res.Truncated || len(res.Content) > llmfs.DefaultMaxReadBytes || res.Lines != llmfs.DefaultMaxReadBytes/len(line) {
			t.Fatalf("Read: truncated %v, %d bytes, %d lines; want truncated, <= %d bytes, %d lines",
				res.Truncated, len(res.Content), res.Lines, llmfs.DefaultMaxReadBytes, llmfs.DefaultMaxReadBytes/len(line))
		}
		if res.NextOffset != res.Lines+1 || res.Content != strings.Repeat(line, res.Lines) {
			t.Errorf("NextOffset %d after %d whole lines", res.NextOffset, res.Lines)
		}
		// An explicit limit does not lift the byte cap.
		res, err := w.Read(bg, "wide.txt", llmfs.ReadOptions{Offset: 100, Limit: 1000})
		noErr(t, err)
		if !res.Truncated || res.NextOffset != 100+res.Lines || len(res.Content) > llmfs.DefaultMaxReadBytes {
			t.Errorf("Read(100, 1000): truncated %v, NextOffset %d, %d lines, %d bytes", res.Truncated, res.NextOffset, res.Lines, len(res.Content))
		}
	})
	// A configured cap.
	eachBackend(t, &llmfs.Options{Limits: llmfs.Limits{MaxReadBytes: 100, MaxReadLines: 3}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", strings.Repeat("0123456789\n", 20))
		res := readAll(t, w, "f.txt")
		if !res.Truncated || res.Lines != 3 || res.NextOffset != 4 {
			t.Errorf("line cap 3: truncated %v, %d lines, NextOffset %d", res.Truncated, res.Lines, res.NextOffset)
		}
		res, err := w.Read(bg, "f.txt", llmfs.ReadOptions{Limit: 15})
		noErr(t, err)
		if !res.Truncated || res.Lines != 9 || len(res.Content) > 100 || res.NextOffset != 10 {
			t.Errorf("byte cap 100: truncated %v, %d lines, %d bytes, NextOffset %d", res.Truncated, res.Lines, len(res.Content), res.NextOffset)
		}
	})
}

func TestFileRead_LongLinesCut(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		long := strings.Repeat("a", 5000)
		wide := strings.Repeat("é", 3000) // 2 bytes each: cut by characters, not bytes
		put(t, w, "f.txt", "short\n"+long+"\n"+wide+"\r\nend")
		res := readAll(t, w, "f.txt")
		lines := strings.SplitAfter(res.Content, "\n")
		if len(lines) != 4 || lines[0] != "short\n" || lines[3] != "end" {
			t.Fatalf("content = %.100q...", res.Content)
		}
		if res.CutLines != 2 || res.TotalLines != 4 || res.Lines != 4 {
			t.Errorf("CutLines %d, TotalLines %d, Lines %d; want 2, 4, 4", res.CutLines, res.TotalLines, res.Lines)
		}
		for i, want := range []string{strings.Repeat("a", 2000), strings.Repeat("é", 2000)} {
			l := lines[i+1]
			if !strings.HasPrefix(l, want) || strings.HasPrefix(l, want+want[:1]) {
				t.Errorf("cut line %d does not hold exactly 2000 characters: %.30q...", i+2, l[len(want)-10:])
			}
			if !strings.Contains(l, "line cut") {
				t.Errorf("cut line %d is not marked: %q", i+2, l[len(want):])
			}
		}
		if !strings.HasSuffix(lines[2], "\r\n") {
			t.Errorf("the cut CRLF line lost its ending: %q", lines[2][len(lines[2])-20:])
		}
		// A line of exactly the cap is whole.
		put(t, w, "g.txt", strings.Repeat("b", 2000)+"\n")
		if res := readAll(t, w, "g.txt"); res.CutLines != 0 || res.Content != strings.Repeat("b", 2000)+"\n" {
			t.Errorf("a line at the cap was cut")
		}
	})
	eachBackend(t, &llmfs.Options{Limits: llmfs.Limits{MaxLineLength: -1}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", strings.Repeat("c", 10000)+"\n")
		if res := readAll(t, w, "f.txt"); res.CutLines != 0 || len(res.Content) != 10001 {
			t.Errorf("MaxLineLength -1 cut a line: %d bytes", len(res.Content))
		}
	})
}

func TestFileRead_BinaryRefused(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, content := range []string{"\x00", "text\x00more", strings.Repeat("x", 7000) + "\x00", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"} {
			put(t, w, "bin", content)
			_, err := w.Read(bg, "bin", llmfs.ReadOptions{Limit: llmfs.NoLimit})
			wantCode(t, err, llmfs.CodeBinaryFile)
		}
	})
}

func TestFileRead_InvalidUTF8Replaced(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "latin1.txt", "caf\xe9\nna\xefve\r\n")
		res := readAll(t, w, "latin1.txt")
		if res.Content != "caf\uFFFD\nna\uFFFDve\r\n" || !res.InvalidUTF8 || !utf8.ValidString(res.Content) {
			t.Errorf("Read = %q (InvalidUTF8 %v)", res.Content, res.InvalidUTF8)
		}
		put(t, w, "ok.txt", "café\n")
		if res := readAll(t, w, "ok.txt"); res.InvalidUTF8 || res.Content != "café\n" {
			t.Errorf("valid UTF-8 flagged: %+v", res)
		}
	})
}

func TestFileRead_SizeAndHash(t *testing.T) {
	eachBackend(t, &llmfs.Options{RequireRead: true}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", "a\nb\nc\n")
		res, err := w.Read(bg, "f.txt", llmfs.ReadOptions{Offset: 2, Limit: 1})
		noErr(t, err)
		if res.Size != 6 || len(res.Hash) != 64 {
			t.Errorf("Size %d, Hash %q", res.Size, res.Hash)
		}
	})
}

// TestFileRead_LimitZeroReadsNothing checks that limit 0 returns no lines and reports no
// truncation or cut lines, whatever the caps: the caller asked for nothing.
func TestFileRead_LimitZeroReadsNothing(t *testing.T) {
	eachBackend(t, &llmfs.Options{Limits: llmfs.Limits{MaxReadBytes: 64, MaxLineLength: 10}}, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "f.txt", strings.Repeat(strings.Repeat("w", 50)+"\n", 20))
		res, err := w.Read(bg, "f.txt", llmfs.ReadOptions{Limit: 0})
		noErr(t, err)
		if res.Content != "" || res.Lines != 0 || res.Truncated || res.NextOffset != 0 || res.CutLines != 0 || res.TotalLines != 20 {
			t.Errorf("Read(limit 0) = %+v", res)
		}
	})
}

func TestFileRead_InvalidUTF8PathRefused(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		_, err := w.Read(bg, "caf\xe9.txt", llmfs.ReadOptions{})
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Write(bg, "caf\xe9.txt", "x", llmfs.WriteOptions{})
		wantCode(t, err, llmfs.CodeInvalidPath)
	})
}

// TestFileRead_ByteCapCountsReplacedBytes checks that the byte cap holds for the content
// as returned: each invalid byte becomes a 3-byte U+FFFD, so a Latin-1 file must not
// overflow the cap by up to three times.
func TestFileRead_ByteCapCountsReplacedBytes(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		put(t, w, "latin1.txt", strings.Repeat(strings.Repeat("\xe9\xe0\xe8\xf9 \xe7a \xe9t\xe9 \xe0 \xe7\xe0 ", 8)+"\n", 4000))
		res := readAll(t, w, "latin1.txt")
		if len(res.Content) > llmfs.DefaultMaxReadBytes || !res.Truncated || !res.InvalidUTF8 {
			t.Errorf("Read: %d bytes (cap %d), truncated %v, invalid %v", len(res.Content), llmfs.DefaultMaxReadBytes, res.Truncated, res.InvalidUTF8)
		}
		if strings.Count(res.Content, "\n") != res.Lines || res.NextOffset != res.Lines+1 {
			t.Errorf("Lines %d, NextOffset %d, newlines %d", res.Lines, res.NextOffset, strings.Count(res.Content, "\n"))
		}
	})
}
