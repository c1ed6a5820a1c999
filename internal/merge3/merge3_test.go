package merge3

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestScenarios runs the txtar files of testdata. Each holds the sections base, ours and
// theirs (a missing one is an absent file; "name@path" gives a side's path, default
// "f.txt") and want, the merged text (with markers); its comment has "why: ..." (the
// conflict, none when clean), "path: P" (the result's path), "crlf" (every "\n" of the
// sections is "\r\n") and "nofinal: base ours theirs want" (those lose their last newline).
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			meta := map[string]string{}
			for l := range strings.SplitSeq(string(ar.Comment), "\n") {
				k, v, _ := strings.Cut(l, ":")
				meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			_, crlf := meta["crlf"]
			nofinal := strings.Fields(meta["nofinal"])
			sides := map[string]Version{}
			for _, f := range ar.Files {
				name, p, ok := strings.Cut(f.Name, "@")
				if !ok {
					p = "f.txt"
				}
				data := f.Data
				if crlf {
					data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
				}
				for _, n := range nofinal {
					if n == name {
						data = bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r"))
					}
				}
				sides[name] = Version{Path: p, Data: data}
			}
			side := func(n string) Version {
				v, ok := sides[n]
				if !ok {
					return Version{Absent: true}
				}
				return v
			}
			want, hasWant := sides["want"]
			r := MergeFile(side("base"), side("ours"), side("theirs"), Options{Ours: "person", Theirs: "agent"})
			if r.Why != meta["why"] {
				t.Errorf("why = %q, want %q", r.Why, meta["why"])
			}
			if p := meta["path"]; p != "" && r.Path != p {
				t.Errorf("path = %q, want %q", r.Path, p)
			}
			if hasWant && !bytes.Equal(r.Data, want.Data) {
				t.Errorf("merged:\n%q\nwant:\n%q", r.Data, want.Data)
			}
			if !hasWant && !r.Absent {
				t.Errorf("merged to %q, want the file absent", r.Data)
			}
		})
	}
}

// TestConflictSides checks that a conflict carries both sides and the base, and that the
// diff3 style shows the base between the markers.
func TestConflictSides(t *testing.T) {
	r := Merge([]byte("a\nb\nc\n"), []byte("a\nB1\nc\n"), []byte("a\nB2\nc\n"), Options{Diff3: true})
	if len(r.Conflicts) != 1 {
		t.Fatalf("conflicts = %d, want 1", len(r.Conflicts))
	}
	c := r.Conflicts[0]
	if string(c.Base) != "b\n" || string(c.Ours) != "B1\n" || string(c.Theirs) != "B2\n" || c.BaseLine != 1 {
		t.Errorf("conflict = %+v", c)
	}
	want := "a\n<<<<<<< ours\nB1\n||||||| base\nb\n=======\nB2\n>>>>>>> theirs\nc\n"
	if string(r.Text) != want {
		t.Errorf("text = %q, want %q", r.Text, want)
	}
}

// TestLargeFallback checks that files past the table's bound still merge changes far from
// each other (the common head and tail) and never lose a side's change.
func TestLargeFallback(t *testing.T) {
	var base strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&base, "line %d\n", i)
	}
	b := base.String()
	ours := strings.Replace(b, "line 10\n", "LINE 10\n", 1)
	theirs := strings.Replace(b, "line 4990\n", "LINE 4990\n", 1)
	r := Merge([]byte(b), []byte(ours), []byte(theirs), Options{})
	if !r.Clean() || !strings.Contains(string(r.Text), "LINE 10\n") || !strings.Contains(string(r.Text), "LINE 4990\n") {
		t.Fatalf("clean=%v, both changes kept=%v", r.Clean(), strings.Count(string(r.Text), "LINE"))
	}
}

// FuzzMerge checks, for any texts: no panic; merging identical sides is the identity; a
// side equal to the base takes the other side whole; equal sides merge to that side,
// cleanly.
func FuzzMerge(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n")
	f.Add("x", "x\ny", "")
	f.Add("1\r\n2\r\n", "1\r\n2", "0\r\n1\r\n2\r\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		b, o, th := []byte(base), []byte(ours), []byte(theirs)
		if r := Merge(o, o, o, Options{}); !r.Clean() || !bytes.Equal(r.Text, o) {
			t.Fatalf("Merge(x, x, x) = %q, %v", r.Text, r.Conflicts)
		}
		if r := Merge(b, b, th, Options{}); !r.Clean() || !bytes.Equal(r.Text, th) {
			t.Fatalf("Merge(b, b, t) = %q, want %q", r.Text, th)
		}
		if r := Merge(b, o, b, Options{}); !r.Clean() || !bytes.Equal(r.Text, o) {
			t.Fatalf("Merge(b, o, b) = %q, want %q", r.Text, o)
		}
		if r := Merge(b, o, o, Options{}); !r.Clean() || !bytes.Equal(r.Text, o) {
			t.Fatalf("Merge(b, o, o) = %q, want %q", r.Text, o)
		}
		r := Merge(b, o, th, Options{Diff3: true})
		if r.Clean() != (len(r.Conflicts) == 0) {
			t.Fatal("Clean disagrees with Conflicts")
		}
	})
}
