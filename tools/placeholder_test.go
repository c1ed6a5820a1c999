package tools

import "testing"

func TestIsPlaceholder(t *testing.T) {
	for _, l := range []string{
		"// ... rest of methods ...",
		"    // ... existing code ...",
		"# ... remaining tests unchanged",
		"/* ... */",
		"<!-- ... -->",
		"{/* ... other items ... */}",
		"// … rest of the file …",
		"// (rest of code unchanged) ...",
		"-- ... previous queries ...",
		"// ...",
		"# ...",
	} {
		if !isPlaceholder(l) {
			t.Errorf("isPlaceholder(%q) = false", l)
		}
	}
	for _, l := range []string{
		"...",
		"func f(args ...int) {",
		"// TODO: handle the rest of the cases later...",
		"// Wait for the others to finish.",
		"fmt.Println(\"...\")",
		"// Keep the same order as before",
		"x := []int{1, 2, 3} // ...",
		"/** Returns the rest ... */ func",
	} {
		if isPlaceholder(l) {
			t.Errorf("isPlaceholder(%q) = true", l)
		}
	}
}
