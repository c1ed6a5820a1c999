package llmfs

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
)

// Streaming writes: the content of a write comes from a reader, and is never held whole in
// memory on its way to the store (a FUSE mount's 1 GiB file, say).

// WriteFrom is [Workspace.Write] of the content src yields, read as it is written: the same
// checks (sandbox, deny rules, mode, quota, IfMatch, read-before-edit), journaled the same
// way, nothing written when it fails. A source that reads at an offset and seeks (a file,
// a [bytes.Reader]) is read from its current offset to its end, possibly more than once
// (a journaled write hashes it first, then writes it); any other source is first copied
// to a temporary file (into memory where there is none, as under js/wasm). The journal
// keeps the content of a file up to [Options.UndoMaxFileBytes] (in memory while it records
// it); a larger file's versions are recorded by hash and size, as for [Workspace.Write].
func (w *Workspace) WriteFrom(ctx context.Context, p string, src io.Reader, opts WriteOptions) (*WriteResult, error) {
	s, done, err := seekable(src)
	if err != nil {
		return nil, errorf(CodeIO, p, "reading the content to write to %s: %v", p, err)
	}
	defer done()
	return w.writeStream(ctx, p, s, opts)
}

// A source is the content of a write, readable from its start as often as needed (a
// write may be tried again: a journal's transaction retried, the content hashed first).
type source struct {
	ra    io.ReaderAt
	start int64
	size  int64
}

// reader returns a reader of the whole content. The stores and the journal's recorder see
// an *io.SectionReader, whose size they can ask.
func (s source) reader() *io.SectionReader { return io.NewSectionReader(s.ra, s.start, s.size) }

// seekable returns src as a source, copying it to a temporary file when it cannot read at
// an offset; done releases that file.
func seekable(src io.Reader) (_ source, done func(), err error) {
	done = func() {}
	type readSeekerAt interface {
		io.ReaderAt
		io.Seeker
	}
	if rs, ok := src.(readSeekerAt); ok {
		start, err := rs.Seek(0, io.SeekCurrent)
		if err != nil {
			return source{}, done, err
		}
		end, err := rs.Seek(0, io.SeekEnd)
		if err != nil {
			return source{}, done, err
		}
		if _, err := rs.Seek(start, io.SeekStart); err != nil {
			return source{}, done, err
		}
		return source{ra: rs, start: start, size: end - start}, done, nil
	}
	f, err := os.CreateTemp("", "llmfs-write-*")
	if err != nil {
		// No temporary files (js/wasm): the content is held in memory.
		b, err := io.ReadAll(src)
		if err != nil {
			return source{}, done, err
		}
		return source{ra: bytes.NewReader(b), size: int64(len(b))}, done, nil
	}
	os.Remove(f.Name()) // the descriptor is enough; nothing is left behind after a crash
	done = func() { f.Close() }
	n, err := io.Copy(f, src)
	if err != nil {
		done()
		return source{}, func() {}, err
	}
	return source{ra: f, size: n}, done, nil
}

// contentOf is the source of a string's content.
func contentOf(content string) source {
	return source{ra: strings.NewReader(content), size: int64(len(content))}
}

// sameContent reports whether a and b yield the same bytes, reading both in steps.
func sameContent(a, b io.Reader) bool {
	bufA, bufB := make([]byte, 32<<10), make([]byte, 32<<10)
	for {
		na, errA := io.ReadFull(a, bufA)
		nb, errB := io.ReadFull(b, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		switch {
		case errA != nil && !endA, errB != nil && !endB:
			return false
		case endA || endB:
			return endA == endB
		}
	}
}
