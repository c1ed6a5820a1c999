package textdiff

import "testing"

func TestUnified(t *testing.T) {
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
