package llmfs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/llmfs/llmfs/internal/binfile"
)

// NoLimit as [ReadOptions.Limit] reads to the end of the file, within the workspace's caps.
// It is the zero value, so ReadOptions{} reads the whole file (up to the caps).
const NoLimit = 0

// ReadOptions select the lines a read returns.
type ReadOptions struct {
	// Offset is the first line to return, counting from 1. Zero means 1.
	Offset int
	// Limit is the most lines to return; [NoLimit] (zero) means all, up to
	// [Limits.MaxReadLines]. Negative is an error. (A tool call's "limit": 0, which asks for
	// no lines, is the tools package's to answer: a caller wanting only the line count can
	// read with Limit 1.)
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
	// Hash is the SHA-256 of the whole file ([store.Hash]), set when the workspace tracks
	// reads and the file is no bigger than [Limits.MaxEditBytes].
	Hash string
}

// PastEnd reports that the read began past the last line of the file, so it returned no
// lines though the caller asked for some: offset 500 of a 21-line file. The faces say so
// ([ReadResult.PastEndNote]) rather than hand back an empty content that reads as an
// empty file. An empty file read from the start is not past its end.
func (r *ReadResult) PastEnd() bool {
	return r.Lines == 0 && r.Offset > r.TotalLines && !(r.Offset == 1 && r.TotalLines == 0)
}

// PastEndNote is the sentence that says a read was past the end, for every face alike:
// "offset 500 is past the end; the file has 21 lines". It is "" unless [ReadResult.PastEnd].
func (r *ReadResult) PastEndNote() string {
	if !r.PastEnd() {
		return ""
	}
	unit := "lines"
	if r.TotalLines == 1 {
		unit = "line"
	}
	return fmt.Sprintf("offset %d is past the end; the file has %d %s", r.Offset, r.TotalLines, unit)
}

// binarySniffLen is how much of a file is searched for a NUL byte to call it binary.
const binarySniffLen = 8000

// readBufferSize is the chunk size for streaming reads. It is a variable so that tests can
// make chunks tiny and put every line boundary at a chunk's edge.
var readBufferSize = 256 << 10

// readBuffers recycles read buffers (*[]byte): allocating and zeroing 256 KiB per read
// cost more than reading a small file.
var readBuffers sync.Pool

func getReadBuffer() *[]byte {
	if p, ok := readBuffers.Get().(*[]byte); ok && len(*p) == readBufferSize {
		return p
	}
	b := make([]byte, readBufferSize)
	return &b
}

// Read returns lines of the text file at p. It streams the file: lines before Offset are
// counted, not kept, so a read deep into a huge file costs one pass and little memory.
// A file with a NUL byte in its first 8000 bytes is refused with [CodeBinaryFile].
func (w *Workspace) Read(ctx context.Context, p string, opts ReadOptions) (*ReadResult, error) {
	res, _, err := w.read(ctx, p, opts, 0)
	return res, err
}

// read is [Workspace.Read], and [Workspace.ReadTextOrImage] when maxImage > 0: then a file
// whose first bytes say it is an image is returned as one (or refused as too large) from
// the same open, before the text scan would refuse it as binary.
func (w *Workspace) read(ctx context.Context, p string, opts ReadOptions, maxImage int64) (*ReadResult, *Image, error) {
	if opts.Offset < 0 {
		return nil, nil, errorf(CodeInvalidArgument, p, "offset must be >= 1, got %d", opts.Offset)
	}
	if opts.Offset == 0 {
		opts.Offset = 1
	}
	if opts.Limit < 0 {
		return nil, nil, errorf(CodeInvalidArgument, p, "limit must be >= 0, got %d", opts.Limit)
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, nil, err
	}
	if err := w.check(ctx, OpRead, r); err != nil {
		return nil, nil, err
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return nil, nil, err
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, nil, storeError(p, err)
	}
	defer f.Close()
	bufp := getReadBuffer()
	defer readBuffers.Put(bufp)
	buf := *bufp
	n, rerr := io.ReadFull(f, buf)
	if maxImage > 0 && (rerr == nil || rerr == io.EOF || rerr == io.ErrUnexpectedEOF) {
		// A failed read is left to the text scan to report.
		if mime := imageType(buf[:n]); mime != "" {
			img, err := w.imageRest(f, p, r, mime, buf[:n], rerr == nil, maxImage)
			return nil, img, err
		}
	}
	var (
		h    *contentHasher
		hw   io.Writer // h, or nil: an untracked read hashes nothing
		id   fileID
		byID bool
	)
	if w.tracker != nil {
		// The store's SHA-256 is worth its cost only for a file small enough to edit, and
		// a file too large to edit is known by its identity when that is trustworthy.
		withSHA := true
		if fi, err := f.Stat(); err == nil && fi.Size() > w.limits.MaxEditBytes {
			withSHA = false
			id, byID = identityOf(fi, time.Now())
		}
		if !byID {
			h = newContentHasher(withSHA)
			hw = h
		}
	}
	var lx *lineIndexUse
	if rerr == nil {
		// The first chunk filled the buffer: the file may be large enough for an index
		// (a smaller one costs no stat).
		if lx = w.lineIndexFor(r.name, f); lx != nil && lx.idx != nil && hw != nil {
			lx = nil // the hash needs every byte
		}
	}
	from := scanStart{line: 1}
	if lx != nil && lx.idx != nil {
		from = scanStart{total: lx.idx.total, size: lx.idx.id.size, stop: true}
		from.line, from.off = lx.idx.start(opts.Offset)
		if from.off > 0 {
			if _, err := f.(io.Seeker).Seek(from.off, io.SeekStart); err != nil {
				return nil, nil, storeError(p, err)
			}
			n, rerr = io.ReadFull(f, buf)
		}
	} else if lx != nil {
		from.build = lx.build
	}
	var m *mappedFile
	if !from.stop && rerr == nil {
		// The scan passes over the rest of a file larger than the buffer: mapped, if it
		// is a host file large enough (readmap_linux.go), that costs no copy.
		m = mapRest(f, int64(n))
	}
	var res *ReadResult
	if m != nil {
		res, err = w.scanMapped(ctx, m, opts, hw, buf, n, rerr, from)
	} else {
		res, err = w.scanLines(ctx, f, nil, opts, hw, buf, n, rerr, from)
	}
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Path = p
			e.Msg = strings.ReplaceAll(e.Msg, "%PATH%", p)
			return nil, nil, e
		}
		return nil, nil, storeError(p, err)
	}
	res.Path = w.display(r.name)
	if from.build != nil {
		if x := from.build.finish(res.Size, res.TotalLines); x != nil {
			lineIndexes.keep(x, lx.file)
		}
	}
	switch {
	case byID:
		w.tracker.record(r.name, seen{id: id, byID: true})
	case h != nil:
		s := h.sum()
		res.Hash = s.sha
		w.tracker.record(r.name, s)
	}
	return res, nil, nil
}

// scanStart is where scanLines starts: line number line at byte offset off of the file,
// the start unless a line index says where a later line begins. With stop, the index also
// gives the file's size and line count, and the scan ends once it has its lines. With
// build, every chunk (of a scan from the start) goes to the builder of an index.
type scanStart struct {
	line  int
	off   int64
	total int
	size  int64
	stop  bool
	build *indexBuilder
}

// scanLines reads f once, collecting the lines opts asks for and counting the rest.
// Every byte read goes to h too, unless h is nil. buf is the read buffer, whose first n
// bytes the caller has read already (with the error rerr of that io.ReadFull): the start of
// the file, which it may have looked at to tell an image, or the bytes from from.off on.
// With m not nil, the bytes after those n come from m instead of f, in chunks no longer
// than buf; the caller catches faults ([Workspace.scanMapped]).
func (w *Workspace) scanLines(ctx context.Context, f io.Reader, m *mappedFile, opts ReadOptions, h io.Writer, buf []byte, n int, rerr error, from scanStart) (*ReadResult, error) {
	lim := w.limits
	maxLines := opts.Limit
	capped := false // whether maxLines comes from the cap, not the caller
	if maxLines == NoLimit {
		maxLines, capped = lim.MaxReadLines, true
	}
	res := &ReadResult{Offset: opts.Offset}
	var (
		out      bytes.Buffer
		cur      []byte      // the line being collected, possibly cut short
		curLen   int         // its full length in bytes
		line     = from.line // number of the line that starts at the current position
		newlines = from.line - 1
		last     byte
		done     bool // collected all we will return
	)
	// Bytes before from.off are counted as read: the sniff for binary, which looked at
	// them when the index was made, is then behind.
	res.Size = from.off
	if from.off > 0 {
		last = '\n'
	}
	for first := true; ; first = false {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk, err := nextChunk(first, f, m, buf, n, rerr)
		n = len(chunk)
		if why := sniffBinary(chunk, res.Size); why != "" {
			return nil, errorf(CodeBinaryFile, "", "binary file (%s); it cannot be read as text: %%PATH%%", why)
		}
		prev := last  // the byte before chunk[0]
		chunkNL := -1 // newlines in the whole chunk, when the index builder counted them
		if n > 0 {
			res.Size += int64(n)
			last = chunk[n-1]
			if h != nil {
				h.Write(chunk)
			}
			if from.build != nil {
				chunkNL = from.build.feed(chunk)
			}
		}
		for len(chunk) > 0 {
			whole := chunkNL >= 0 && len(chunk) == n
			if done {
				// Count the remaining lines without looking at them.
				newlines += countLines(chunk, whole, chunkNL)
				chunk = nil
				break
			}
			if line < opts.Offset {
				rest, skipped := skipChunk(chunk, whole, chunkNL, opts.Offset-line)
				newlines += skipped
				line += skipped
				if rest == nil {
					chunk = nil
					break
				}
				chunk = rest
				prev = '\n'
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
		if done && from.stop {
			break
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if done && from.stop {
		// The index knows the rest.
		newlines, res.Size, last = from.total, from.size, '\n'
	}
	if curLen > 0 && !done && line >= opts.Offset {
		// The last line has no newline.
		if !w.emitLine(&out, res, cur, curLen, "") {
			res.Truncated = true
		}
	}
	res.settle(newlines, last, capped)
	res.Content = out.String()
	return res, nil
}

// nextChunk returns scanLines' next chunk of the file and the error of its read: on the
// first round the n bytes the caller read already (with its error rerr), then the next
// bytes of m if the file is mapped, or else of f, at most len(buf) of them.
func nextChunk(first bool, f io.Reader, m *mappedFile, buf []byte, n int, rerr error) ([]byte, error) {
	switch {
	case first:
		return buf[:n], rerr
	case m != nil:
		return m.next(len(buf))
	default:
		n, err := io.ReadFull(f, buf)
		return buf[:n], err
	}
}

// sniffBinary returns why the file is binary, or "", from the part of chunk (read at
// offset size) that lies in the file's first binarySniffLen bytes, however the chunks cut
// them; past those bytes it returns "".
func sniffBinary(chunk []byte, size int64) string {
	if sniff := binarySniffLen - size; sniff > 0 && len(chunk) > 0 {
		return binfile.Why(chunk[:min(int64(len(chunk)), sniff)], size == 0)
	}
	return ""
}

// countLines counts the newlines of chunk: the index builder's count chunkNL when chunk is
// the whole chunk it counted (whole), else a count of its own.
func countLines(chunk []byte, whole bool, chunkNL int) int {
	if whole {
		return chunkNL
	}
	return bytes.Count(chunk, nl)
}

// skipChunk skips up to want lines of chunk, returning the rest (nil if it ends before the
// wanted line) and the lines skipped: a whole chunk that ends before it by the index
// builder's count, so a read deep into a big file is one vectorized count a chunk.
func skipChunk(chunk []byte, whole bool, chunkNL, want int) ([]byte, int) {
	if whole && chunkNL < want {
		return nil, chunkNL
	}
	return skipLines(chunk, want)
}

// settle sets the result's line count, from the newlines scanned and the file's last byte,
// and whether it is truncated: only if lines remain and the caller's limit or the cap
// (capped) stopped the read, in which case NextOffset says where to go on.
func (r *ReadResult) settle(newlines int, last byte, capped bool) {
	r.TotalLines = newlines
	if r.Size > 0 && last != '\n' {
		r.TotalLines++
	}
	next := r.Offset + r.Lines
	if next <= r.TotalLines && (r.Truncated || capped) {
		r.Truncated = true
		r.NextOffset = next
	} else {
		r.Truncated = false
	}
}

var nl = []byte{'\n'}
