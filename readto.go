package llmfs

import (
	"bytes"
	"context"
	"io"

	"github.com/llmfs/llmfs/internal/binfile"
)

// skipLines skips up to n lines of chunk. It returns what follows the n-th newline and n,
// or, when chunk holds fewer than n newlines, nil and how many it holds.
func skipLines(chunk []byte, n int) ([]byte, int) {
	c := bytes.Count(chunk, nl)
	if c < n {
		return nil, c
	}
	for i := 0; i < n; i++ {
		chunk = chunk[bytes.IndexByte(chunk, '\n')+1:]
	}
	return chunk, n
}

// ReadTo writes lines of the text file at p to out exactly as the file has them (line
// endings, long lines and bytes that are not UTF-8 untouched): from line opts.Offset, at
// most opts.Limit lines, or to the end with [NoLimit]. It is the read for a person (the CLI)
// rather than a model, so the workspace's read caps do not apply.
//
// ReadTo streams through one fixed buffer and stops reading once it has written what was
// asked, so its memory does not grow with the file and a read near the start of a huge file
// is quick. A file with a NUL byte in its first 8000 bytes is refused with [CodeBinaryFile]
// before anything is written. It does not count as a read for [Options.RequireRead]. It
// returns the number of lines written; a failure to write to out is a [CodeIO] error.
func (w *Workspace) ReadTo(ctx context.Context, p string, opts ReadOptions, out io.Writer) (int, error) {
	if opts.Offset < 0 {
		return 0, errorf(CodeInvalidArgument, p, "offset must be >= 1, got %d", opts.Offset)
	}
	if opts.Offset == 0 {
		opts.Offset = 1
	}
	if opts.Limit < 0 {
		return 0, errorf(CodeInvalidArgument, p, "limit must be >= 0, got %d", opts.Limit)
	}
	r, err := w.resolve(p)
	if err != nil {
		return 0, err
	}
	if err := w.check(ctx, OpRead, r); err != nil {
		return 0, err
	}
	if err := w.slashDir(ctx, r, false); err != nil {
		return 0, err
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return 0, storeError(p, err)
	}
	defer f.Close()
	bufp := getReadBuffer()
	defer readBuffers.Put(bufp)
	var (
		buf     = *bufp
		line    = 1     // number of the line that starts at the current position
		written = 0     // complete lines written
		partial = false // bytes of a line without its newline were written
		size    int64   // bytes read so far
	)
	for first := true; ; first = false {
		if err := ctx.Err(); err != nil {
			return written, storeError(p, err)
		}
		n, rerr := io.ReadFull(f, buf)
		chunk := buf[:n]
		if sniff := binarySniffLen - size; sniff > 0 && n > 0 {
			// The first binarySniffLen bytes of the file, however the chunks cut them.
			// Nothing is written before they are all seen, so a binary file prints nothing.
			if why := binfile.Why(chunk[:min(int64(n), sniff)], size == 0); why != "" {
				return 0, errorf(CodeBinaryFile, p, "binary file (%s); it cannot be read as text: %s", why, p)
			}
		}
		size += int64(n)
		if first && rerr == nil && line < opts.Offset {
			// A full first chunk and lines to skip: with a line index, skip to the
			// indexed line nearest the offset (the bytes before it, sniffed when the
			// index was made, count as read).
			if lx := w.lineIndexFor(r.name, f); lx != nil && lx.idx != nil {
				if l, off := lx.idx.start(opts.Offset); off > size {
					if _, err := f.(io.Seeker).Seek(off, io.SeekStart); err != nil {
						return 0, storeError(p, err)
					}
					line, size = l, off
					continue
				}
			}
		}
		if line < opts.Offset {
			rest, skipped := skipLines(chunk, opts.Offset-line)
			line += skipped
			chunk = rest
		}
		if len(chunk) > 0 {
			if opts.Limit != NoLimit {
				if rest, got := skipLines(chunk, opts.Limit-written); rest != nil {
					chunk = chunk[:len(chunk)-len(rest)]
					written += got
					if _, err := out.Write(chunk); err != nil {
						return written, &Error{Code: CodeIO, Path: p, Msg: "writing the output: " + err.Error(), Err: err}
					}
					return written, nil
				}
			}
			c := bytes.Count(chunk, nl)
			written += c
			partial = chunk[len(chunk)-1] != '\n'
			if _, err := out.Write(chunk); err != nil {
				return written, &Error{Code: CodeIO, Path: p, Msg: "writing the output: " + err.Error(), Err: err}
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			return written, storeError(p, rerr)
		}
	}
	if partial {
		written++ // the last line has no newline
	}
	return written, nil
}
