package termtext

import "testing"

// Issue 12.8: an agent wrote to "CWD/x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt" and the
// name forged a line in the user's terminal. Names come out on one line, escapes visible.
func TestTerminalInjectionEscaped(t *testing.T) {
	type test struct{ in, name, text string }
	for _, tc := range []test{
		{"notes/today.md", "notes/today.md", "notes/today.md"},
		{"héllo wörld 日本語 🎉.txt", "héllo wörld 日本語 🎉.txt", "héllo wörld 日本語 🎉.txt"},
		{"a b", "a b", "a b"},
		{"", "", ""},
		{"x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt", `"x\n[fs] modified /etc/passwd (1 bytes)\x1b[2K.txt"`, "x\n[fs] modified /etc/passwd (1 bytes)\\x1b[2K.txt"},
		{"tab\there", `"tab\there"`, "tab\there"},
		{"cr\rover", `"cr\rover"`, `cr\rover`},
		{"bidi\u202eexe.txt", `"bidi\u202eexe.txt"`, `bidi\u202eexe.txt`},
		{"bad\xffbyte", `"bad\xffbyte"`, `bad\xffbyte`},
		{"c1\u009bcsi", `"c1\u009bcsi"`, `c1\u009bcsi`},
		{"del\x7f", `"del\x7f"`, `del\x7f`},
		{"real \ufffd replacement", "real \ufffd replacement", "real \ufffd replacement"},
	} {
		if got := Name(tc.in); got != tc.name {
			t.Errorf("Name(%q) = %s, want %s", tc.in, got, tc.name)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

func TestNamePlainDoesNotAllocate(t *testing.T) {
	s := "src/some/ordinary/path.go"
	if n := testing.AllocsPerRun(100, func() { _ = Name(s) }); n != 0 {
		t.Errorf("Name allocates %v times for a plain name", n)
	}
}
