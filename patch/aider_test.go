package patch

import (
	"context"
	"testing"
)

// Issue 32.8: cases of Aider's editblock tests (tests/basic/test_editblock.py), restated:
// a "..." line between blocks names no file (the block keeps the file of the one before),
// a "# " before the file name is dropped, and a SEARCH whose first line is blank, which
// models add spuriously (Aider issue #25), still matches.
func TestAiderBlocks(t *testing.T) {
	in := map[string]string{"foo.txt": "one\ntwo\nthree\n", "src/app.py": "def f():\n    return 1\n    pass\n"}
	tests := []struct {
		name, patch string
		want        map[string]string
	}{
		{"ellipsis between blocks", "foo.txt\n```\n<<<<<<< SEARCH\none\n=======\nOne\n>>>>>>> REPLACE\n```\n\n...\n\n```\n<<<<<<< SEARCH\nthree\n=======\nThree\n>>>>>>> REPLACE\n```\n",
			map[string]string{"foo.txt": "One\ntwo\nThree\n"}},
		{"hash before the file name", "# src/app.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n",
			map[string]string{"src/app.py": "def f():\n    return 2\n    pass\n"}},
		{"blank first line in SEARCH", "foo.txt\n<<<<<<< SEARCH\n\ntwo\nthree\n=======\ntwo\n3\n>>>>>>> REPLACE\n",
			map[string]string{"foo.txt": "one\ntwo\n3\n"}},
		{"blank first line in both", "foo.txt\n<<<<<<< SEARCH\n\ntwo\nthree\n=======\n\ntwo\n3\n>>>>>>> REPLACE\n",
			map[string]string{"foo.txt": "one\ntwo\n3\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.patch, "")
			if err != nil {
				t.Fatal(err)
			}
			pl, err := p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
				c, ok := in[path]
				return c, ok, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(pl.Files) != len(tt.want) {
				t.Fatalf("files %d, want %d", len(pl.Files), len(tt.want))
			}
			for _, f := range pl.Files {
				if w, ok := tt.want[f.Path]; !ok || f.After != w {
					t.Errorf("%s:\n%q\nwant\n%q", f.Path, f.After, w)
				}
			}
		})
	}
}
