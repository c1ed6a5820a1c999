package patch

import "testing"

// Issue 32.2: a V4A update of a file with mixed CRLF and LF line endings keeps each
// untouched line's own ending; a replaced line takes the ending of the line it
// replaces, an added one the file's most common ending.
func TestV4AMixedLineEndings(t *testing.T) {
	for _, tt := range []struct{ name, in, patch, want string }{
		{
			name:  "untouched lines keep their endings",
			in:    "a\r\nb\nc\r\nd\n",
			patch: "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n c\n*** End Patch\n",
			want:  "a\r\nB\nc\r\nd\n",
		},
		{
			name:  "repeated context line",
			in:    "x\r\nx\ny\r\nz\n",
			patch: "*** Begin Patch\n*** Update File: f.txt\n@@\n x\n x\n-y\n+Y\n z\n*** End Patch\n",
			want:  "x\r\nx\nY\r\nz\n",
		},
		{
			name:  "repeated context around the change",
			in:    "}\n}\r\nold\r\n}\n}\r\n",
			patch: "*** Begin Patch\n*** Update File: f.txt\n@@\n }\n }\n-old\n+new\n+added\n }\n }\n*** End Patch\n",
			want:  "}\n}\r\nnew\r\nadded\r\n}\n}\r\n",
		},
	} {
		out, _, err := apply(t, map[string]string{"f.txt": tt.in}, tt.patch)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := out["f.txt"]; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
