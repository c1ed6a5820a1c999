package editmatch

import "strings"

// WidenToIndent catches new text that carries the indentation its old text left out:
// old starts after the indentation of a line ("foo()" in "  foo()") and occurs once,
// and new's first line starts with that same indentation ("  bar()"). Replacing old as
// found would indent new twice ("    bar()"); WidenToIndent returns old with the line's
// indentation in front, so new replaces the whole line start. Otherwise it returns old.
func WidenToIndent(text, old, new string) string {
	if old == "" || old[0] == ' ' || old[0] == '\t' || old[0] == '\n' || strings.Count(text, old) != 1 {
		return old
	}
	i := strings.Index(text, old)
	ls := strings.LastIndexByte(text[:i], '\n') + 1
	ind := text[ls:i]
	if ind == "" || strings.TrimLeft(ind, " \t") != "" || !strings.HasPrefix(new, ind) {
		return old
	}
	if ind+old == new {
		// Widened, the edit would change nothing: new adds indentation to old, as written.
		return old
	}
	return ind + old
}

// carriesFileIndent reports whether new's lines already sit at the indentation of the
// file lines they stand for, while old's do not: the model copied old without the file's
// indentation (or with another) but wrote new as the file has it. Re-indenting new by
// old's offset would indent it twice, so new is taken as written.
func (f *file) carriesFileIndent(w int, old, new model, corr []int) bool {
	paired, oldOff := 0, false
	for i, j := range corr {
		if j < 0 || strings.TrimSpace(new.lines[i]) == "" || strings.TrimSpace(old.lines[j]) == "" {
			continue
		}
		fl := leading(f.content(w + j))
		if leading(new.lines[i]) != fl {
			return false
		}
		paired++
		if leading(old.lines[j]) != fl {
			oldOff = true
		}
	}
	return paired > 0 && oldOff
}
