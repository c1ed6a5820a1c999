package tools

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNameLineASCIIFastPath: the printable-ASCII shortcut gives the answer the full check
// gives, for every byte in the middle of a name and at its ends (DEL and the C0 controls
// must still be quoted).
func TestNameLineASCIIFastPath(t *testing.T) {
	slow := func(name string) string {
		if name != emptyDirNote && !strings.HasPrefix(name, `"`) && utf8.ValidString(name) && !strings.ContainsFunc(name, breaksLine) {
			return name
		}
		return strconv.Quote(name)
	}
	for b := range 256 {
		for _, name := range []string{"a" + string(rune(b)) + "b", string([]byte{byte(b)}), "x.txt" + string([]byte{byte(b)})} {
			if got, want := nameLine(name), slow(name); got != want {
				t.Errorf("nameLine(%q) = %q, want %q", name, got, want)
			}
		}
	}
}
