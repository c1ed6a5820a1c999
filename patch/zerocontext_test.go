package patch

import (
	"strings"
	"testing"
)

// A unified diff made with zero lines of context (git diff -U0, diff -U0) has hunks of
// added lines only; the header's line numbers are the only place they can go, so they
// go there, not to the end of the file.
func TestUnifiedZeroContextAdditions(t *testing.T) {
	const in = "a\nb\nc\nd\ne\n"
	for _, tt := range []struct{ name, patch, want string }{
		{
			name: "git diff -U0",
			patch: "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n" +
				"@@ -0,0 +1 @@\n+top\n@@ -2,0 +4,2 @@ b\n+X\n+Y\n@@ -5,0 +9 @@ e\n+end\n",
			want: "top\na\nb\nX\nY\nc\nd\ne\nend\n",
		},
		{
			name:  "diff -U0 with a change before the addition",
			patch: "--- f.txt\n+++ f.txt\n@@ -1 +1,2 @@\n-a\n+A\n+A2\n@@ -3,0 +5 @@\n+after c\n",
			want:  "A\nA2\nb\nc\nafter c\nd\ne\n",
		},
		{
			name:  "context-free addition with no place given still goes to the end",
			patch: "--- f.txt\n+++ f.txt\n@@\n+end\n",
			want:  "a\nb\nc\nd\ne\nend\n",
		},
	} {
		out, _, err := apply(t, map[string]string{"f.txt": in}, tt.patch)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := out["f.txt"]; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnifiedZeroContextPastEnd(t *testing.T) {
	_, _, err := apply(t, map[string]string{"f.txt": "a\nb\n"}, "--- f.txt\n+++ f.txt\n@@ -7,0 +8 @@\n+x\n")
	if err == nil || !strings.Contains(err.Error(), "line 8") {
		t.Fatalf("err = %v, want a refusal naming line 8", err)
	}
}

func TestUnifiedZeroContextNoFinalNewline(t *testing.T) {
	out, _, err := apply(t, map[string]string{"f.txt": "a\nb"}, "--- f.txt\n+++ f.txt\n@@ -2,0 +3 @@\n+c\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := out["f.txt"]; got != "a\nb\nc\n" {
		t.Fatalf("%q", got)
	}
}
