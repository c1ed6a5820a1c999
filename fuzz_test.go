package llmfs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/llmfs/llmfs/internal/binfile"
	"github.com/llmfs/llmfs/store/mem"
)

// FuzzResolve checks the path rules on any input: no panic, a refusal is INVALID_PATH,
// a sandboxed result lies within the root, and every store name is valid.
func FuzzResolve(f *testing.F) {
	for _, seed := range []struct {
		root, p string
		relaxed bool
	}{
		{"/ws", "a/b.txt", false},
		{"/ws", "../ws-evil/x", false},
		{"/ws", "/ws/../ws-evil", false},
		{"/ws", "a/../../x", true},
		{"/", "//x//y/", false},
		{"/", "..", true},
		{"", "./../x", false},
		{"/a/b", "/a/b", false},
		{"/a/b", "/a/bc/d", false},
		{"/a/b", "c\x00d", true},
		{"relative/root", "x/./y/../z", false},
		{"/ws", "", false},
		{"/ws", "\\..\\x", false},
		{"/ws/", ".../x", true},
		{"/日本", "../日本/ok", false},
	} {
		f.Add(seed.root, seed.p, seed.relaxed)
	}
	f.Fuzz(func(t *testing.T, root, p string, relaxed bool) {
		if strings.IndexByte(root, 0) >= 0 || !utf8.ValidString(root) {
			t.Skip("a root with NUL or invalid UTF-8: the root is configuration, not input; Open gets it from the host")
		}
		virtual := New(mem.New(), &Options{Root: root, Relaxed: relaxed})
		// A relaxed host workspace: the store is rooted at "/", names carry the root.
		host := New(mem.New(), &Options{Root: root, Relaxed: relaxed})
		host.base = strings.TrimPrefix(host.root, "/")
		if host.base == "" {
			host.base = "."
		}
		for _, w := range []*Workspace{virtual, host} {
			r, err := w.resolve(p)
			if err != nil {
				if code := CodeOf(err); code != CodeInvalidPath {
					t.Fatalf("resolve(%q) under %q: code %q, want INVALID_PATH", p, w.root, code)
				}
				if !w.relaxed || p == "" || strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) {
					continue
				}
				if w.base != "." || w.root == "/" {
					t.Fatalf("relaxed resolve(%q) under %q (base %q) refused: %v", p, w.root, w.base, err)
				}
				continue
			}
			if p == "" || strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) {
				t.Fatalf("resolve(%q) accepted an empty path, a NUL byte or invalid UTF-8", p)
			}
			if !fs.ValidPath(r.name) {
				t.Fatalf("resolve(%q) under %q = name %q, not a valid store name", p, w.root, r.name)
			}
			if !strings.HasPrefix(r.abs, "/") || r.abs != path.Clean(r.abs) {
				t.Fatalf("resolve(%q) = abs %q, not clean and absolute", p, r.abs)
			}
			if got := w.display(r.name); got != r.abs {
				t.Fatalf("resolve(%q) under %q: display(%q) = %q, want abs %q", p, w.root, r.name, got, r.abs)
			}
			if !w.relaxed {
				if r.abs != w.root && !strings.HasPrefix(r.abs, strings.TrimSuffix(w.root, "/")+"/") {
					t.Fatalf("sandboxed resolve(%q) under %q = %q, outside the root", p, w.root, r.abs)
				}
				if w.base == "." {
					if rel := w.Paths().Rel(r.abs); rel != r.name {
						t.Fatalf("resolve(%q) under %q: name %q but Rel says %q", p, w.root, r.name, rel)
					}
				}
			}
		}
	})
}

// refRead is the obvious implementation of a read: split the whole file into lines, pick
// the window, and apply the caps line by line.
func refRead(data []byte, opts ReadOptions, lim Limits) (*ReadResult, error) {
	// A NUL byte anywhere in the sniffed head, or a binary format's signature at the
	// start of the first chunk read (the scan looks for signatures there only).
	if bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0 || binfile.Magic(data[:min(len(data), readBufferSize, binarySniffLen)]) {
		return nil, errorf(CodeBinaryFile, "", "binary")
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if opts.Offset == 0 {
		opts.Offset = 1
	}
	res := &ReadResult{Offset: opts.Offset, TotalLines: len(lines), Size: int64(len(data))}
	maxLines, capped := opts.Limit, false
	if maxLines == NoLimit {
		maxLines, capped = lim.MaxReadLines, true
	}
	// validRunes is s with each invalid byte replaced, as ranging over s yields it.
	validRunes := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
		}
		return b.String()
	}
	headRunes := func(s string, n int) string {
		for i := range s {
			if n == 0 {
				return s[:i]
			}
			n--
		}
		return s
	}
	var out strings.Builder
	for i := opts.Offset - 1; i < len(lines) && res.Lines < maxLines; i++ {
		text, ending := lines[i], ""
		switch {
		case strings.HasSuffix(text, "\r\n"):
			text, ending = text[:len(text)-2], "\r\n"
		case strings.HasSuffix(text, "\n"):
			text, ending = text[:len(text)-1], "\n"
		}
		full := len(text)
		// Without a length cap, a line longer than the scanner keeps is never whole.
		tooLong := lim.MaxLineLength < 0 && len(text)+len(ending) > lim.MaxReadBytes+2
		cut := false
		if lim.MaxLineLength >= 0 && utf8.RuneCountInString(text) > lim.MaxLineLength {
			text, cut = headRunes(text, lim.MaxLineLength), true
		}
		// The cut mark counts at its real length.
		mark := fmt.Sprintf(" … [line cut: %d bytes in all]", full)
		size := len(validRunes(text)) + len(ending)
		if cut {
			size += len(mark)
		}
		if out.Len()+size > lim.MaxReadBytes || tooLong {
			if res.Lines > 0 {
				res.Truncated = true
				break
			}
			text, cut = headRunes(text, max(lim.MaxReadBytes-len(mark)-len(ending), 0)/4), true
		}
		if !utf8.ValidString(text) {
			text, res.InvalidUTF8 = validRunes(text), true
		}
		out.WriteString(text)
		if cut {
			res.CutLines++
			out.WriteString(mark)
		}
		out.WriteString(ending)
		res.Lines++
	}
	if next := res.Offset + res.Lines; next <= res.TotalLines && (res.Truncated || capped) {
		res.Truncated, res.NextOffset = true, next
	} else {
		res.Truncated = false
	}
	res.Content = out.String()
	return res, nil
}

// FuzzReadScan checks the streaming line scanner against refRead on any content, window
// and chunk size, with default caps and with tiny ones.
func FuzzReadScan(f *testing.F) {
	for _, seed := range []struct {
		data          string
		offset, limit int
		chunk         uint8
	}{
		{"a\nb\nc\n", 1, 0, 0},
		{"a\r\nb\r\nc", 2, 1, 1},
		{"\r\n\r\n\r\n", 1, 0, 2},
		{"no newline", 1, 5, 3},
		{"", 1, 0, 1},
		{"\n", 1, 0, 1},
		{"x\x00y", 1, 0, 1},
		{strings.Repeat("long line ", 20) + "\r\nshort\n", 1, 0, 7},
		{"caf\xe9\nna\xefve\r\n", 1, 0, 4},
		{"日本語\n日本語日本語日本語日本語\r\n", 2, 1, 5},
		{strings.Repeat("0123456789\n", 30), 3, 0, 16},
		{strings.Repeat("z", 300), 1, 0, 9},
		{"a\rb\r\n\rc", 1, 0, 1},
	} {
		f.Add([]byte(seed.data), seed.offset, seed.limit, seed.chunk)
	}
	defer func(n int) { readBufferSize = n }(readBufferSize)
	f.Fuzz(func(t *testing.T, data []byte, offset, limit int, chunk uint8) {
		if offset < 0 || limit < 0 || offset > 1<<20 || limit > 1<<20 {
			t.Skip("Read refuses a negative offset or limit before it scans; huge ones only slow the fuzzer")
		}
		if offset == 0 {
			offset = 1 // as Read does before it scans
		}
		readBufferSize = 1 + int(chunk)
		if chunk == 0 {
			readBufferSize = 256 << 10
		}
		for _, lim := range []Limits{
			{},
			{MaxReadLines: 3, MaxReadBytes: 100, MaxLineLength: 10},
			{MaxReadLines: 50, MaxReadBytes: 200, MaxLineLength: -1},
			{MaxReadLines: 1000, MaxReadBytes: 1 << 20, MaxLineLength: -1},
			{MaxReadLines: 2, MaxReadBytes: 8, MaxLineLength: -1},
		} {
			w := &Workspace{limits: lim.withDefaults()}
			opts := ReadOptions{Offset: offset, Limit: limit}
			buf := make([]byte, readBufferSize)
			r := bytes.NewReader(data)
			n, rerr := io.ReadFull(r, buf)
			got, gerr := w.scanLines(context.Background(), r, nil, opts, nil, buf, n, rerr, scanStart{line: 1})
			want, werr := refRead(data, opts, w.limits)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("limits %+v, opts %+v, chunk %d: scanLines error %v, reference error %v", lim, opts, readBufferSize, gerr, werr)
			}
			if gerr != nil {
				continue
			}
			if !utf8.ValidString(got.Content) {
				t.Fatalf("limits %+v, opts %+v: content is not valid UTF-8: %q", lim, opts, got.Content)
			}
			if w.limits.MaxReadBytes >= 128 && len(got.Content) > w.limits.MaxReadBytes {
				t.Fatalf("limits %+v, opts %+v: %d bytes of content over the cap", lim, opts, len(got.Content))
			}
			if *got != *want {
				t.Fatalf("limits %+v, opts %+v, chunk %d, data %q:\n got %+v\nwant %+v", lim, opts, readBufferSize, data, got, want)
			}
		}
	})
}
