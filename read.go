package llmfs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
	"unicode/utf8"
)

// NoLimit as [ReadOptions.Limit] reads to the end of the file, within the workspace's caps.
const NoLimit = -1

// ReadOptions select the lines a read returns.
type ReadOptions struct {
	// Offset is the first line to return, counting from 1. Zero means 1.
	Offset int
	// Limit is the most lines to return; [NoLimit] means all, up to [Limits.MaxReadLines].
	Limit int
}

// ReadResult is what [Workspace.Read] returns.
type ReadResult struct {
	// Path is the file's absolute path.
	Path string
	// Content holds the lines read, each with its own line ending (CRLF kept as is), and
	// the final newline if the file has one.
	Content string
	// TotalLines is the number of lines in the whole file; a last line without a newline
	// counts. An empty file has none.
	TotalLines int
	// Offset is the number of the first line in Content; Lines is how many lines it holds.
	Offset, Lines int
	// Truncated reports that a cap, not the caller's limit or the end of the file, ended the
	// read; NextOffset is then the line to continue from.
	Truncated  bool
	NextOffset int
	// CutLines counts lines shortened to [Limits.MaxLineLength].
	CutLines int
	// InvalidUTF8 reports that bytes that are not UTF-8 were replaced with U+FFFD.
	InvalidUTF8 bool
	// Size is the file's size in bytes.
	Size int64
	// Hash is the SHA-256 of the whole file, set when the workspace tracks reads.
	Hash string
}

// binarySniffLen is how much of a file is searched for a NUL byte to call it binary.
const binarySniffLen = 8000

// readBufferSize is the chunk size for streaming reads. It is a variable so that tests can
// make chunks tiny and put every line boundary at a chunk's edge.
var readBufferSize = 256 << 10

// Read returns lines of the text file at p. It streams the file: lines before Offset are
// counted, not kept, so a read deep into a huge file costs one pass and little memory.
// A file with a NUL byte in its first 8000 bytes is refused with [CodeBinaryFile].
func (w *Workspace) Read(ctx context.Context, p string, opts ReadOptions) (*ReadResult, error) {
	if opts.Offset < 0 {
		return nil, errorf(CodeInvalidArgument, p, "offset must be >= 1, got %d", opts.Offset)
	}
	if opts.Offset == 0 {
		opts.Offset = 1
	}
	if opts.Limit < NoLimit {
		return nil, errorf(CodeInvalidArgument, p, "limit must be >= 0, got %d", opts.Limit)
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, opRead, r); err != nil {
		return nil, err
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, storeError(p, err)
	}
	defer f.Close()
	var h hash.Hash
	if w.tracker != nil {
		h = sha256.New()
	}
	res, err := w.scanLines(ctx, f, opts, h)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Path = p
			e.Msg = strings.ReplaceAll(e.Msg, "%PATH%", p)
			return nil, e
		}
		return nil, storeError(p, err)
	}
	res.Path = w.display(r.name)
	if h != nil {
		res.Hash = hex.EncodeToString(h.Sum(nil))
		w.tracker.record(res.Path, res.Hash)
	}
	return res, nil
}

// scanLines reads f once, collecting the lines opts asks for and counting the rest.
func (w *Workspace) scanLines(ctx context.Context, f io.Reader, opts ReadOptions, h hash.Hash) (*ReadResult, error) {
	lim := w.limits
	maxLines := opts.Limit
	capped := false // whether maxLines comes from the cap, not the caller
	if maxLines == NoLimit {
		maxLines, capped = lim.MaxReadLines, true
	}
	res := &ReadResult{Offset: opts.Offset}
	var (
		out      bytes.Buffer
		cur      []byte // the line being collected, possibly cut short
		curLen   int    // its full length in bytes
		line     = 1    // number of the line that starts at the current position
		newlines int
		last     byte
		done     = maxLines == 0 // collected all we will return
		buf      = make([]byte, readBufferSize)
	)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := io.ReadFull(f, buf)
		chunk := buf[:n]
		if sniff := binarySniffLen - res.Size; sniff > 0 && n > 0 {
			// The first binarySniffLen bytes of the file, however the chunks cut them.
			if bytes.IndexByte(chunk[:min(int64(n), sniff)], 0) >= 0 {
				return nil, errorf(CodeBinaryFile, "", "binary file (it contains NUL bytes); it cannot be read as text: %%PATH%%")
			}
		}
		prev := last // the byte before chunk[0]
		if n > 0 {
			res.Size += int64(n)
			last = chunk[n-1]
			if h != nil {
				h.Write(chunk)
			}
		}
		for len(chunk) > 0 {
			if done || line < opts.Offset {
				// Count lines without keeping them.
				if done {
					newlines += bytes.Count(chunk, nl)
					chunk = nil
					break
				}
				i := bytes.IndexByte(chunk, '\n')
				if i < 0 {
					chunk = nil
					break
				}
				chunk = chunk[i+1:]
				prev = '\n'
				newlines++
				line++
				continue
			}
			i := bytes.IndexByte(chunk, '\n')
			seg := chunk
			if i >= 0 {
				seg = chunk[:i+1]
			}
			chunk = chunk[len(seg):]
			before := prev
			prev = seg[len(seg)-1]
			curLen += len(seg)
			if keep := lineKeepBytes(lim) - len(cur); keep > 0 {
				cur = append(cur, seg[:min(keep, len(seg))]...)
			}
			if i < 0 {
				continue
			}
			crlf := i > 0 && seg[i-1] == '\r' || i == 0 && before == '\r'
			newlines++
			line++
			if !w.emitLine(&out, res, cur, curLen, lineEnding(crlf)) {
				res.Truncated = true
				done = true
			} else if res.Lines == maxLines {
				done = true
			}
			cur, curLen = cur[:0], 0
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if curLen > 0 && !done && line >= opts.Offset {
		// The last line has no newline.
		if !w.emitLine(&out, res, cur, curLen, "") {
			res.Truncated = true
		}
	}
	res.TotalLines = newlines
	if res.Size > 0 && last != '\n' {
		res.TotalLines++
	}
	next := res.Offset + res.Lines
	if next <= res.TotalLines && (res.Truncated || capped) {
		res.Truncated = true
		res.NextOffset = next
	} else {
		res.Truncated = false
	}
	res.Content = out.String()
	return res, nil
}

var nl = []byte{'\n'}

// lineKeepBytes is how much of one line is kept while scanning: enough for MaxLineLength
// characters of up to four bytes, and the line ending.
func lineKeepBytes(lim Limits) int {
	if lim.MaxLineLength < 0 {
		return lim.MaxReadBytes + 2
	}
	return 4*lim.MaxLineLength + 2
}

// emitLine appends one line (kept bytes cur of a line curLen long, ending included) to out.
// It reports false, appending nothing, when the line would pass the byte cap. Bytes that are
// not UTF-8 are replaced with U+FFFD one by one, and the byte cap counts the replacements,
// so it holds for the content as returned.
func (w *Workspace) emitLine(out *bytes.Buffer, res *ReadResult, cur []byte, curLen int, ending string) bool {
	lim := w.limits
	whole := len(cur) == curLen
	text := cur
	if whole {
		text = cur[:len(cur)-len(ending)]
	} else {
		// Only the head of the line was kept; it is cut below in any case.
		text = trimPartialRune(cur)
	}
	cut := false
	if lim.MaxLineLength >= 0 && (!whole || utf8.RuneCount(text) > lim.MaxLineLength) {
		text = cutRunes(text, lim.MaxLineLength)
		cut = true
	}
	size := validLen(text) + len(ending)
	if cut {
		size += 64
	}
	if out.Len()+size > lim.MaxReadBytes || !whole && !cut {
		if res.Lines > 0 {
			return false
		}
		// A single line larger than the byte cap: return its head.
		text = cutRunes(text, max(lim.MaxReadBytes-64, 0)/4)
		cut = true
	}
	if !utf8.Valid(text) {
		text = toValidUTF8(text)
		res.InvalidUTF8 = true
	}
	out.Write(text)
	if cut {
		res.CutLines++
		fmt.Fprintf(out, " … [line cut: %d bytes in all]", curLen-len(ending))
	}
	out.WriteString(ending)
	res.Lines++
	return true
}

// validLen is the length of b once each byte that is not UTF-8 is replaced with U+FFFD.
func validLen(b []byte) int {
	n := len(b)
	if utf8.Valid(b) {
		return n
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n += len("\uFFFD") - 1
		}
		b = b[size:]
	}
	return n
}

// toValidUTF8 returns b with each byte that is not UTF-8 replaced with U+FFFD, as ranging
// over a string does (strings.ToValidUTF8 would fold a run of them into one).
func toValidUTF8(b []byte) []byte {
	out := make([]byte, 0, validLen(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// trimPartialRune drops an incomplete UTF-8 sequence cut off at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

func lineEnding(crlf bool) string {
	if crlf {
		return "\r\n"
	}
	return "\n"
}

// cutRunes returns the first n characters of b.
func cutRunes(b []byte, n int) []byte {
	for i := range string(b) {
		if n == 0 {
			return b[:i]
		}
		n--
	}
	return b
}
