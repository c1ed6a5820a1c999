package textdiff

import "testing"

func TestUnified(t *testing.T) {
	type test struct {
		name, a, b, want string
	}
	tests := []test{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n"},
		{"insert at start", "b\n", "a\nb\n", "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n+a\n b\n"},
		{"delete all", "a\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		// As GNU diff shows it: a text that differs only in its final newline has a hunk.
		{"final newline added", "a\nb", "a\nb\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"no final newline, kept", "a\nb", "x\nb",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+x\n b\n\\ No newline at end of file\n"},
		{"crlf kept visible", "a\r\nb\r\n", "a\r\nc\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
	}
	for _, tt := range tests {
		if got := Unified("f", tt.a, tt.b, 3, 60); got != tt.want {
			t.Errorf("%s: Unified = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnifiedCapsLines(t *testing.T) {
	a, b := "", ""
	for i := 0; i < 100; i++ {
		a += "x\n"
		b += "y\n"
	}
	got := Unified("f", a, b, 3, 10)
	if want := "... (190 more diff lines)\n"; len(got) < len(want) || got[len(got)-len(want):] != want {
		t.Errorf("Unified did not cap: %q", got)
	}
}

// TestUnifiedHunks: unchanged lines between changes stay context, far changes get
// hunks of their own.
func TestUnifiedHunks(t *testing.T) {
	type test struct {
		name, a, b string
		want       string
	}
	tests := []test{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"insert at start", "b\n", "a\nb\n", "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n+a\n b\n"},
		{"delete at end", "a\nb\n", "a\n", "--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n a\n-b\n"},
		// Two changes far apart make two hunks; unchanged lines between changes stay
		// context, never a removal and re-addition.
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-1\n+X\n 2\n@@ -9,2 +9,2 @@\n 9\n-10\n+Y\n"},
		{"joined hunk", "1\n2\n3\n4\n", "X\n2\n3\nY\n", "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n-4\n+Y\n"},
	}
	for _, tc := range tests {
		if got := Unified("f", tc.a, tc.b, 1, 0); got != tc.want {
			t.Errorf("%s: Unified =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestUnifiedCut(t *testing.T) {
	got := Unified("f", "a\nb\nc\nd\n", "A\nB\nC\nD\n", 0, 3)
	want := "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-a\n-b\n-c\n... (5 more diff lines)\n"
	if got != want {
		t.Errorf("Unified =\n%s\nwant\n%s", got, want)
	}
}
