package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/patch"
)

// placeholderWords are the words of an omission placeholder: "// ... rest of methods ...",
// "# ... existing code ...". A model writes one for code it left out; the tools write
// text as given, so the line would replace that code.
var placeholderWords = []string{"rest", "existing", "remaining", "unchanged", "same", "previous", "omitted", "other"}

// commentMarks are the comment openers and closers a placeholder line is wrapped in.
var (
	commentOpen  = []string{"{/*", "<!--", "/*", "//", "--", "#", ";"}
	commentClose = []string{"*/}", "-->", "*/"}
)

// isPlaceholder reports whether line is a comment that stands for omitted code: nothing
// but an ellipsis ("/* ... */", "<!-- ... -->", "// ..."), or an ellipsis followed or
// preceded by words such as rest, existing or unchanged ("// ... rest of methods ...",
// "# existing code ..."). A comment that merely mentions "the rest..." deeper in a sentence
// is not one: the ellipsis must open the comment, or a placeholder word must.
func isPlaceholder(line string) bool {
	s := strings.TrimSpace(line)
	opened := false
	for _, o := range commentOpen {
		if strings.HasPrefix(s, o) {
			s, opened = s[len(o):], true
			break
		}
	}
	if !opened {
		return false
	}
	for _, c := range commentClose {
		s = strings.TrimSuffix(strings.TrimSpace(s), c)
	}
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.ReplaceAll(s, "\u2026", "...")
	s = strings.Trim(s, "()[] ")
	if s == "..." {
		return true
	}
	starts, ends := strings.HasPrefix(s, "..."), strings.HasSuffix(s, "...")
	if !starts && !ends {
		return false
	}
	words := strings.FieldsFunc(strings.Trim(s, ". "), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	})
	if len(words) == 0 || len(words) > 8 {
		return false
	}
	for i, w := range words {
		for _, p := range placeholderWords {
			if w == p && (starts || i == 0) {
				return true
			}
		}
	}
	return false
}

// placeholderIn returns the first line of text that is an omission placeholder and does
// not occur in have (the text it replaces, or the file), with its number; "" when none.
func placeholderIn(text, have string) (string, int) {
	n := 0
	for l := range strings.Lines(text) {
		n++
		if isPlaceholder(l) && !strings.Contains(have, strings.TrimSpace(l)) {
			return strings.TrimSpace(l), n
		}
	}
	return "", 0
}

// placeholderError is the refusal of a text that holds a placeholder: what names the text.
func placeholderError(p, what, line string, n int) error {
	return &llmfs.Error{Code: llmfs.CodeInvalidArgument, Path: p, Msg: fmt.Sprintf(
		"%s line %d, %q, stands for code left out, but the text is written as given, so that line would replace the real code. "+
			"Nothing was changed: send the complete text, every line written out (to change only a part of a file, edit just that part with its exact old text).",
		what, n, line)}
}

// checkEditText refuses a replacement whose new text holds a placeholder its old text
// does not.
func checkEditText(p, old, new, what string) error {
	if line, n := placeholderIn(new, old); line != "" {
		return placeholderError(p, what, line, n)
	}
	return nil
}

// checkWriteText refuses content with a placeholder that the file at p (if any) does
// not already hold. The file is read only when there is a placeholder, and without
// counting as a read for read-before-edit.
func (tb *Toolbox) checkWriteText(ctx context.Context, p, content, what string) error {
	line, _ := placeholderIn(content, "")
	if line == "" {
		return nil
	}
	have := ""
	if b, err := tb.ws.ReadFile(ctx, p, tb.ws.Settings().Limits.MaxEditBytes); err == nil {
		have = string(b)
	}
	if line, n := placeholderIn(content, have); line != "" {
		return placeholderError(p, what, line, n)
	}
	return nil
}

// checkPatchText refuses a patch that adds a file with a placeholder line, or one of
// whose hunks adds a placeholder line that the hunk's old text does not hold. A patch that does not parse is left to the patch tool
// to report.
func checkPatchText(text, path string) error {
	pt, err := patch.Parse(text, path)
	if err != nil {
		return nil
	}
	for _, f := range pt.Files {
		if line, n := placeholderIn(f.Content, ""); f.Op == patch.Add && line != "" {
			return placeholderError(f.Path, f.Path+": the added file's", line, n)
		}
		for k, h := range f.Hunks {
			if line, n := placeholderIn(h.New, h.Old); line != "" {
				return placeholderError(f.Path, fmt.Sprintf("%s, hunk %d: the new text's", f.Path, k+1), line, n)
			}
		}
	}
	return nil
}
