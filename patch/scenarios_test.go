package patch

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// apply plans p against files and returns the files as the plan leaves them.
func apply(t *testing.T, files map[string]string, text string) (map[string]string, *Plan, error) {
	return applyDefault(t, files, text, "")
}

// applyTo is apply for a patch without file headers that applies to def.
func applyTo(t *testing.T, files map[string]string, text, def string) (map[string]string, error) {
	out, _, err := applyDefault(t, files, text, def)
	return out, err
}

func applyDefault(t *testing.T, files map[string]string, text, def string) (map[string]string, *Plan, error) {
	t.Helper()
	p, err := Parse(text, def)
	if err != nil {
		return files, nil, err
	}
	pl, err := p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
		c, ok := files[path]
		return c, ok, nil
	})
	if err != nil {
		return files, nil, err
	}
	out := maps.Clone(files)
	for _, f := range pl.Files {
		if f.Delete {
			delete(out, f.Path)
		} else {
			out[f.Path] = f.After
		}
	}
	return out, pl, nil
}

func dump(m map[string]string) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		sb.WriteString("-- " + k + " --\n" + m[k])
	}
	return sb.String()
}

// TestScenarios runs the patch scenarios of testdata/scenarios, one txtar archive each:
// the Codex apply_patch test suite's scenarios restated (codex-NNN, named by its
// fixtures; where llmfs differs on purpose the comment says why), and V4A, unified and
// SEARCH/REPLACE cases of llmfs's own. An archive holds the patch, the files before
// (in/PATH) and either every file after (want/PATH; a lone "want" for none) or a part of
// the error ("error"), in which case the files must be as they were. Its comment may say
// "default: PATH" (the file a patch without headers applies to), "crlf: SECTION..." (the
// sections whose lines end in CRLF) and "noeol: SECTION..." (those without a final newline).
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			sc := readScenario(t, file)
			got, err := applyTo(t, sc.in, sc.patch, sc.def)
			if sc.want == nil {
				if err == nil || !strings.Contains(err.Error(), sc.err) {
					t.Fatalf("error %v, want one saying %q", err, sc.err)
				}
				if dump(got) != dump(sc.in) {
					t.Fatalf("a failed patch changed files:\n%s", dump(got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dump(got) != dump(sc.want) {
				t.Errorf("got\n%s\nwant\n%s", dump(got), dump(sc.want))
			}
		})
	}
}

type scenario struct {
	def, patch, err string
	in, want        map[string]string // want nil: the patch must fail with err
}

func readScenario(t *testing.T, file string) scenario {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	crlf, noeol := map[string]bool{}, map[string]bool{}
	sc := scenario{in: map[string]string{}}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		key, value, _ := strings.Cut(line, ": ")
		switch key {
		case "default":
			sc.def = value
		case "crlf", "noeol":
			for _, name := range strings.Fields(value) {
				map[string]map[string]bool{"crlf": crlf, "noeol": noeol}[key][name] = true
			}
		}
	}
	for _, f := range ar.Files {
		data := string(f.Data)
		if noeol[f.Name] {
			data = strings.TrimSuffix(data, "\n")
		}
		if crlf[f.Name] {
			data = strings.ReplaceAll(data, "\n", "\r\n")
		}
		switch name := f.Name; {
		case name == "patch":
			sc.patch = data
		case name == "error":
			sc.err = strings.TrimSpace(data)
		case name == "want":
			sc.want = map[string]string{}
		case strings.HasPrefix(name, "in/"):
			sc.in[name[len("in/"):]] = data
		case strings.HasPrefix(name, "want/"):
			if sc.want == nil {
				sc.want = map[string]string{}
			}
			sc.want[name[len("want/"):]] = data
		default:
			t.Fatalf("%s: unknown section %q", file, name)
		}
	}
	if (sc.want == nil) == (sc.err == "") {
		t.Fatalf("%s: give either want sections or an error section", file)
	}
	return sc
}

func TestSniff(t *testing.T) {
	for text, want := range map[string]Format{
		"*** Begin Patch\n":                    V4A,
		"intro\n--- a/x\n+++ b/x\n@@ -1 +1 @@": Unified,
		"x.go\n<<<<<<< SEARCH\n":               SearchReplace,
		"------- SEARCH\n":                     SearchReplace,
		"just prose":                           Unknown,
	} {
		if got := Sniff(text); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", text, got, want)
		}
	}
	_, err := Parse("hello", "")
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(prose): %v", err)
	}
}

// FuzzParsePatch: no input makes Parse or Plan panic, and a parsed patch always has files.
func FuzzParsePatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n-a\n+b\n*** End of File\n*** End Patch\n")
	f.Add("--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")
	f.Add("a\n<<<<<<< SEARCH\n:start_line:2\n-------\nb\n=======\nc\n>>>>>>> REPLACE\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text, "a")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(p.Files) == 0 {
			t.Fatal("a parsed patch without files")
		}
		_, _ = p.Plan(context.Background(), func(_ context.Context, path string) (string, bool, error) {
			return "a\nb\n\tc\n", path == "a", nil
		})
	})
}
