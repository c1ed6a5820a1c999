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
