//go:build !js && !wasip1

package acp

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/llmfs/llmfs/internal/termtext"
)

// restoreCommand is the command line that restores checkpoint in root, ready to paste:
// --root is left out when root is the current directory.
func restoreCommand(root, checkpoint string) string {
	cmd := "llmfs restore "
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, root) {
		cmd += "--root " + shellQuote(root) + " "
	}
	return termtext.Text(cmd + shellQuote(checkpoint))
}

func sameDir(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain characters.
func shellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.,:/@%+=", r)))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
