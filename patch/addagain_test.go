package patch

import (
	"errors"
	"strings"
	"testing"
)

// TestAddedAgain: a patch that adds a path an earlier section already gave content is a
// ParseError naming the path and the line of the second add (issue 31, item 8).
func TestAddedAgain(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int
	}{
		{"*** Begin Patch\n*** Add File: a.txt\n+one\n*** Add File: a.txt\n+two\n*** End Patch\n", 4},
		{"*** Begin Patch\n*** Update File: b.txt\n*** Move to: a.txt\n@@\n-x\n+y\n*** Add File: a.txt\n+two\n*** End Patch\n", 7},
	} {
		_, err := Parse(tc.text, "")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(pe.Msg, "a.txt is added again") {
			t.Errorf("Parse(%q) = %v, want a ParseError at line %d naming a.txt", tc.text, err, tc.line)
		}
	}
	ok := "*** Begin Patch\n*** Add File: a.txt\n+one\n*** Delete File: a.txt\n*** Add File: a.txt\n+two\n*** Update File: a.txt\n@@\n-two\n+three\n*** End Patch\n"
	if _, err := Parse(ok, ""); err != nil {
		t.Errorf("an add, a delete, an add and an update: %v", err)
	}
}
