package llmfs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/llmfs/llmfs/internal/textdiff"
	"github.com/llmfs/llmfs/store"
)

// Replacement is one exact-text replacement of an edit.
type Replacement struct {
	Old        string `json:"old_text"`
	New        string `json:"new_text"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// EditResult is what [Workspace.Edit] returns.
type EditResult struct {
	Path         string // absolute path of the file
	Replacements int    // occurrences replaced, over all replacements
	Diff         string // a short unified diff of the change
}

// Edit replaces old with new in the file at p. Without replaceAll, old must occur exactly
// once. See [Workspace.EditMany].
func (w *Workspace) Edit(ctx context.Context, p, old, new string, replaceAll bool) (*EditResult, error) {
	return w.EditMany(ctx, p, []Replacement{{Old: old, New: new, ReplaceAll: replaceAll}})
}

// EditMany applies replacements to the file at p in order, each to the result of the one
// before, and writes the file once: all of them happen, or none.
//
// Each Old must be non-empty and differ from its New; without ReplaceAll it must occur
// exactly once ([CodePatternNotFound], [CodePatternNotUnique]). In a file with CRLF line
// endings, an Old and New written with "\n" match and keep CRLF; a byte-order mark stays.
// The write is a compare-and-swap on the content read: if another writer changed the file
// in between, the edit fails with [CodeFileChanged] and changes nothing.
func (w *Workspace) EditMany(ctx context.Context, p string, edits []Replacement) (*EditResult, error) {
	if len(edits) == 0 {
		return nil, errorf(CodeInvalidArgument, p, "no edits given")
	}
	for i, e := range edits {
		if e.Old == "" {
			return nil, errorf(CodeInvalidArgument, p, "%sold text must not be empty", editLabel(i, len(edits)))
		}
		if e.Old == e.New {
			return nil, errorf(CodeInvalidArgument, p, "%sold and new text are the same; nothing to change", editLabel(i, len(edits)))
		}
	}
	r, err := w.resolve(p)
	if err != nil {
		return nil, err
	}
	if err := w.check(ctx, opEdit, r); err != nil {
		return nil, err
	}
	data, err := w.load(ctx, r)
	if err != nil {
		return nil, err
	}
	hash := store.Hash(data)
	abs := w.display(r.name)
	if w.tracker != nil {
		seen, err := w.readFirst(abs, p)
		if err != nil {
			return nil, err
		}
		if seen != hash {
			return nil, errorf(CodeFileChanged, p, "the file changed since this session read it; read it again, then edit: %s", p)
		}
	}
	text := string(data)
	crlf := strings.Contains(text, "\r\n")
	total := 0
	for i, e := range edits {
		old, new := e.Old, e.New
		n := strings.Count(text, old)
		if n == 0 && crlf && strings.Contains(old, "\n") && !strings.Contains(old, "\r\n") {
			old = strings.ReplaceAll(old, "\n", "\r\n")
			new = strings.ReplaceAll(strings.ReplaceAll(new, "\r\n", "\n"), "\n", "\r\n")
			n = strings.Count(text, old)
		}
		switch {
		case n == 0:
			return nil, notFound(p, text, e.Old, editLabel(i, len(edits)))
		case n > 1 && !e.ReplaceAll:
			return nil, notUnique(p, text, old, n, editLabel(i, len(edits)))
		}
		if e.ReplaceAll {
			text = strings.ReplaceAll(text, old, new)
		} else {
			text = strings.Replace(text, old, new, 1)
		}
		total += n
	}
	done, err := w.admitFile(ctx, r, func(int64) int64 { return int64(len(text)) })
	if err != nil {
		return nil, err
	}
	_, err = w.store.WriteFile(ctx, r.name, strings.NewReader(text), store.WriteOptions{IfMatch: hash})
	done(err)
	if err != nil {
		return nil, storeError(p, err)
	}
	if w.tracker != nil {
		w.tracker.record(abs, store.Hash([]byte(text)))
	}
	return &EditResult{
		Path:         abs,
		Replacements: total,
		Diff:         textdiff.Unified(w.Rel(abs), string(data), text, 3, 60),
	}, nil
}

// load reads a whole regular text file for an edit.
func (w *Workspace) load(ctx context.Context, r resolved) ([]byte, error) {
	fi, err := w.store.Stat(ctx, r.name)
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	if fi.IsDir() {
		return nil, errorf(CodeInvalidPath, r.arg, "is a directory: %s", r.arg)
	}
	if fi.Size() > w.limits.MaxEditBytes {
		return nil, errorf(CodeFileTooLarge, r.arg, "file is %d bytes, over the %d-byte edit limit: %s", fi.Size(), w.limits.MaxEditBytes, r.arg)
	}
	f, err := w.store.Open(ctx, r.name)
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, w.limits.MaxEditBytes+1))
	if err != nil {
		return nil, storeError(r.arg, err)
	}
	if int64(len(data)) > w.limits.MaxEditBytes {
		return nil, errorf(CodeFileTooLarge, r.arg, "file is over the %d-byte edit limit: %s", w.limits.MaxEditBytes, r.arg)
	}
	if bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0 {
		return nil, errorf(CodeBinaryFile, r.arg, "binary file (it contains NUL bytes); it cannot be edited as text: %s", r.arg)
	}
	return data, nil
}

func editLabel(i, n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf("edit %d of %d: ", i+1, n)
}

// notUnique names how many times old occurs and on which lines, so the caller can widen it.
func notUnique(p, text, old string, n int, label string) error {
	var lines []string
	at := 0
	for i := 0; i < n && i < 5; i++ {
		j := strings.Index(text[at:], old)
		lines = append(lines, fmt.Sprint(1+strings.Count(text[:at+j], "\n")))
		at += j + len(old)
	}
	more := ""
	if n > 5 {
		more = ", ..."
	}
	return errorf(CodePatternNotUnique, p,
		"%sthe old text occurs %d times (at lines %s%s); add surrounding lines to make it unique, or set replace_all: %s",
		label, n, strings.Join(lines, ", "), more, p)
}

// notFound says the old text is absent and, when a line of the file looks like the first
// line of old but for whitespace, points to it.
func notFound(p, text, old, label string) error {
	hint := ""
	first := ""
	for l := range strings.SplitSeq(old, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	if first != "" {
		n := 0
		for l := range strings.SplitSeq(text, "\n") {
			n++
			if strings.Contains(squash(l), squash(first)) {
				hint = fmt.Sprintf(" The most similar line is %d: %q (check whitespace and indentation).", n, strings.TrimRight(l, "\r"))
				break
			}
		}
	}
	return errorf(CodePatternNotFound, p, "%sthe old text was not found in the file; it must match exactly, including whitespace: %s.%s", label, p, hint)
}

// squash removes all whitespace, for a lenient comparison.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}
