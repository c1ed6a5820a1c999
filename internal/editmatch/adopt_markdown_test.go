package editmatch

import "testing"

// A Markdown file whose only tab-indented lines are in a fenced code example is not a
// tab-indented file: an exact edit adding a list item with a two-space continuation line
// keeps its spaces (found by the Markdown edit corpus of bench/editbench).
func TestAdoptMarkdownFencedTabs(t *testing.T) {
	text := "# Title\n\n```go\nfunc f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\nrefused (`FILE_CHANGED`).\n\n## Layout\n\nend\n"
	old := "`FILE_CHANGED`).\n\n## Layout\n"
	new := "`FILE_CHANGED`).\n\n- **Modes**: read-only,\n  read-write, full.\n\n## Layout\n"
	r, err := Find(text, old, new)
	if err != nil {
		t.Fatal(err)
	}
	if r.Step != Exact || r.New != new {
		t.Fatalf("step %s, new %q; want the text as given", r.Step, r.New)
	}
	// A Go file indented with tabs still gets its convention.
	goText := "func f() {\n\tx()\n\ty()\n\tz()\n}\n"
	r, err = Find(goText, "\ty()\n", "\ty()\n    w()\n")
	if err != nil {
		t.Fatal(err)
	}
	if r.Step != Indent || r.New != "\ty()\n\tw()\n" {
		t.Fatalf("Go file: step %s, new %q", r.Step, r.New)
	}
}
