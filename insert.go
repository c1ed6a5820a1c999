package llmfs

import (
	"context"
	"errors"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Insert puts text into the file at p after line n (0: at the start; the file's line count:
// at the end) and returns the result as an edit does. The text is written with the file's
// line endings and ends with one; a file whose last line lacks a newline gets one before
// text inserted at its end. Read tracking and compare-and-swap are as for
// [Workspace.EditMany]. A line past the end is [CodeInvalidArgument].
func (w *Workspace) Insert(ctx context.Context, p string, n int, text string) (*EditResult, error) {
	if w.journal() != nil {
		return journaled(ctx, w, ChangeEdit, func(w *Workspace) (*EditResult, error) { return w.Insert(ctx, p, n, text) })
	}
	if n < 0 {
		return nil, errorf(CodeInvalidArgument, p, "the line to insert after must be 0 (the start) or more, got %d", n)
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, OpEdit, r); err != nil {
		return nil, err
	}
	data, err := w.load(ctx, r)
	if err != nil {
		return nil, err
	}
	if w.tracker != nil {
		known, err := w.readFirst(r.name, p)
		if err != nil {
			return nil, err
		}
		if !known.holds(data) {
			return nil, changedError(p, nil)
		}
	}
	old := string(data)
	body := old
	mark := ""
	if strings.HasPrefix(body, bom) {
		mark, body = bom, body[len(bom):]
	}
	eol := "\n"
	if i := strings.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		eol = "\r\n"
	}
	ins := strings.ReplaceAll(toLF(text), "\n", eol)
	if !strings.HasSuffix(ins, eol) {
		ins += eol
	}
	at, line := 0, 0
	for line < n {
		j := strings.IndexByte(body[at:], '\n')
		if j < 0 {
			if at < len(body) && line+1 == n {
				// The last line has no newline: give it one, then insert.
				body += eol
				at = len(body)
				break
			}
			total := line
			if at < len(body) {
				total++
			}
			return nil, errorf(CodeInvalidArgument, p, "line %d is past the end of %s, which has %d lines; insert after line 0 to %d", n, p, total, total)
		}
		at += j + 1
		line++
	}
	out := mark + body[:at] + ins + body[at:]
	done, err := w.admitFile(ctx, r, func(int64) int64 { return int64(len(out)) })
	if err != nil {
		return nil, err
	}
	_, err = w.store.WriteFile(ctx, r.name, strings.NewReader(out), store.WriteOptions{IfMatch: store.Hash(data)})
	done(err)
	if errors.Is(err, store.ErrChanged) {
		return nil, changedError(p, err)
	}
	if err != nil {
		return nil, storeError(p, err)
	}
	if w.tracker != nil {
		w.tracker.record(r.name, seenOf([]byte(out)))
	}
	abs := w.display(r.name)
	return &EditResult{Path: abs, Replacements: 1, Matched: MatchExact,
		Diff: textdiff.Unified(w.rel(abs), old, out, 3, 60)}, nil
}
