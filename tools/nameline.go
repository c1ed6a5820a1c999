package tools

import (
	"strconv"
	"strings"
	"unicode"
)

// nameLine is a name as one line of a names-only listing: the name itself, or, when it
// would not read back as one line (a newline or another control character in it), or
// starts with a quote or is the empty directory's note, the name quoted as a Go string
// literal (lossless, invalid UTF-8 included). A name with a newline printed raw would read
// as two entries.
func nameLine(name string) string {
	if name != emptyDirNote && !strings.HasPrefix(name, `"`) && !strings.ContainsFunc(name, unicode.IsControl) {
		return name
	}
	return strconv.Quote(name)
}

// emptyDirNote is the text of a names-only listing of an empty directory.
const emptyDirNote = "(empty directory)"
