package llmfs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs/internal/editmatch"
)

// Matched names how an edit found its old text: [MatchExact], or one of the tolerant
// steps, which forgive the mistakes models make when they copy text from a read.
type Matched = editmatch.Step

// How an edit's old text was found (see [EditResult.Matched]).
const (
	MatchExact      = editmatch.Exact      // as given, or with the file's line endings
	MatchWhitespace = editmatch.Whitespace // whole lines, trailing whitespace ignored
	MatchIndent     = editmatch.Indent     // whole lines, indentation ignored; new re-indented
	MatchUnicode    = editmatch.Unicode    // as indent, typographic punctuation as ASCII
	MatchPrefix     = editmatch.Prefix     // line-number prefixes copied from a read stripped
)

// tolerantEdit is the fallback of an edit whose old text does not occur exactly in text:
// the tolerant steps of package editmatch, each accepted only when it matches one place.
// It returns the edited text and the step, or a [CodePatternNotUnique] error naming the
// step and lines, or ok false when no step matched.
func tolerantEdit(p, text, old, new, label string) (string, Matched, bool, error) {
	r, err := editmatch.Tolerant(text, old, new)
	var a *editmatch.Ambiguous
	switch {
	case errors.As(err, &a):
		lines := make([]string, len(a.Lines))
		for i, l := range a.Lines {
			lines[i] = fmt.Sprint(l)
		}
		return "", "", false, errorf(CodePatternNotUnique, p,
			"%sthe old text does not occur exactly in %s, and ignoring %s it matches %d places (at lines %s). Nothing was changed: copy the text exactly, or include more surrounding lines to make it unique.",
			label, p, ignored(a.Step), a.Count, strings.Join(lines, ", "))
	case errors.Is(err, editmatch.ErrIndentation):
		// The error keeps ErrIndentation, so that no looser matcher of a face (gemini's)
		// makes the guess this one refused.
		e := errorf(CodePatternNotFound, p,
			"%sthe old text does not occur exactly in %s; ignoring indentation it matches one place, but its indentation differs from the file's by no one rule (tabs for spaces, some levels off), so where the new lines go would be a guess. Nothing was changed: copy the old text with the file's exact indentation, and indent the new text the same way.",
			label, p)
		e.Err = editmatch.ErrIndentation
		return "", "", false, e
	case err != nil:
		return "", "", false, nil
	}
	return r.Apply(text), r.Step, true, nil
}

func ignored(s Matched) string {
	switch s {
	case MatchWhitespace:
		return "trailing whitespace"
	case MatchIndent:
		return "indentation"
	case MatchUnicode:
		return "indentation and typographic punctuation"
	case MatchPrefix:
		return "copied line-number prefixes"
	}
	return string(s)
}

// looser returns the looser of two steps, for the result of several edits.
func looser(a, b Matched) Matched {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}
