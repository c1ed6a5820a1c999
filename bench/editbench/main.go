//go:build !js && !wasip1

// Command editbench measures how edits survive the mistakes models make. Its corpus is
// real: the hunks of the Go files changed in the last commits before a fixed revision of
// a git repository (by default llmfs's own history), each hunk an edit of the file as
// it was before that commit. Every edit is made through the edit tool of every dialect
// (and through each dialect's patch tool), once as is and once under each perturbation a
// model makes when it copies text: trailing spaces, a shifted indent, spaces for tabs (and
// tabs for spaces),
// copied line-number prefixes, typographic quotes, a missing final newline. Each outcome
// is correct (the file is exactly the next version's), refused (an error; nothing
// written), or wrong (written, but not as the next version has it); a wrong edit that
// exact matching would have made as well (the old text occurs once and replacing it gives
// the same, or the tool reports that every hunk matched as given) is counted apart.
//
//	go run ./bench/editbench -repo . -rev 8f29def -commits 40
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/patch"
	"github.com/llmfs/llmfs/store/mem"
	"github.com/llmfs/llmfs/tools"
)

type edit struct {
	path, before, old, new, after string
	line                          int // first line of old in before
}

func main() {
	repo := flag.String("repo", ".", "git repository to take the corpus from")
	rev := flag.String("rev", "8f29def", "revision whose history gives the corpus (fixed, so runs compare)")
	commits := flag.Int("commits", 40, "commits to take hunks from")
	max := flag.Int("max", 400, "most edits")
	files := flag.String("files", "*.go", "git pathspec of the files whose hunks are taken")
	verbose := flag.Bool("v", false, "print every wrong or refused edit")
	flag.Parse()
	edits, err := corpus(*repo, *rev, *files, *commits, *max)
	if err != nil {
		fmt.Fprintln(os.Stderr, "editbench:", err)
		os.Exit(1)
	}
	fmt.Printf("corpus: %d edits (%s) from %d commits before %s\n\n", len(edits), *files, *commits, *rev)
	run(edits, os.Stdout, *verbose)
}

// corpus collects the hunks of the files (a pathspec) changed by the commits before rev whose old text
// occurs once in the file (so the exact edit is well defined).
func corpus(repo, rev, files string, commits, max int) ([]edit, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).Output()
		return string(out), err
	}
	log, err := git("log", "--no-merges", "--format=%H", "-n", fmt.Sprint(commits), rev, "--", files)
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	var out []edit
	for _, c := range strings.Fields(log) {
		diff, err := git("diff", "-U2", c+"^", c, "--", files)
		if err != nil {
			continue
		}
		p, err := patch.Parse(diff, "")
		if err != nil {
			continue
		}
		for _, f := range p.Files {
			if f.Op != patch.Update || f.To != "" {
				continue
			}
			before, err := git("show", c+"^:"+f.Path)
			if err != nil {
				continue
			}
			for _, h := range f.Hunks {
				if h.Old == "" || strings.Count(before, h.Old) != 1 || strings.TrimSpace(h.Old) == "" {
					continue
				}
				i := strings.Index(before, h.Old)
				out = append(out, edit{path: f.Path, before: before, old: h.Old, new: h.New,
					after: before[:i] + h.New + before[i+len(h.Old):], line: 1 + strings.Count(before[:i], "\n")})
				if len(out) == max {
					return out, nil
				}
			}
		}
	}
	return out, nil
}

// A perturbation changes the old and new text as a model copying them might.
type perturbation struct {
	name  string
	apply func(e edit, old, new string, prefix func(int) string) (string, string)
}

var perturbations = []perturbation{
	{"none", func(_ edit, o, n string, _ func(int) string) (string, string) { return o, n }},
	{"trailing spaces", func(_ edit, o, n string, _ func(int) string) (string, string) {
		return eachLine(o, func(i int, l string) string { return l + strings.Repeat(" ", 1+i%2) }),
			eachLine(n, func(i int, l string) string { return l + strings.Repeat(" ", 1+i%2) })
	}},
	{"indent shift", func(_ edit, o, n string, _ func(int) string) (string, string) {
		shift := func(i int, l string) string {
			if l == "" {
				return l
			}
			return "    " + l
		}
		return eachLine(o, shift), eachLine(n, shift)
	}},
	{"spaces for tabs", func(_ edit, o, n string, _ func(int) string) (string, string) {
		re := func(i int, l string) string {
			body := strings.TrimLeft(l, "\t")
			return strings.Repeat("    ", len(l)-len(body)) + body
		}
		return eachLine(o, re), eachLine(n, re)
	}},
	{"tabs for spaces", func(e edit, o, n string, _ func(int) string) (string, string) {
		// A model that writes a tab for each level of a file indented with spaces (issue
		// 32.1): the level is the narrowest indentation of the file.
		unit := 0
		for l := range strings.Lines(e.before) {
			if w := len(l) - len(strings.TrimLeft(l, " ")); w > 0 && strings.TrimSpace(l) != "" && (unit == 0 || w < unit) {
				unit = w
			}
		}
		re := func(i int, l string) string {
			body := strings.TrimLeft(l, " ")
			if unit == 0 {
				return l
			}
			w := len(l) - len(body)
			return strings.Repeat("\t", w/unit) + strings.Repeat(" ", w%unit) + body
		}
		return eachLine(o, re), eachLine(n, re)
	}},
	{"line numbers", func(e edit, o, n string, prefix func(int) string) (string, string) {
		return eachLine(o, func(i int, l string) string { return prefix(e.line+i) + l }),
			eachLine(n, func(i int, l string) string { return prefix(e.line+i) + l })
	}},
	{"smart quotes", func(_ edit, o, n string, _ func(int) string) (string, string) {
		return smart(o), smart(n)
	}},
	{"no final newline", func(_ edit, o, n string, _ func(int) string) (string, string) {
		return strings.TrimSuffix(o, "\n"), strings.TrimSuffix(n, "\n")
	}},
}

// eachLine rewrites the lines of s (not the empty string after a final newline).
func eachLine(s string, f func(int, string) string) string {
	nl := strings.HasSuffix(s, "\n")
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = f(i, l)
	}
	out := strings.Join(lines, "\n")
	if nl {
		out += "\n"
	}
	return out
}

// smart turns straight double quotes into typographic ones, opening and closing in turn.
func smart(s string) string {
	var b strings.Builder
	open := true
	for _, r := range s {
		if r == '"' {
			if open {
				b.WriteString("\u201c")
			} else {
				b.WriteString("\u201d")
			}
			open = !open
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// A way is one edit tool of a dialect, with the read format whose numbers a model copies.
type way struct {
	name    string
	dialect tools.Dialect
	prefix  func(int) string
	call    func(tb *tools.Toolbox, path, old, new string) (json.RawMessage, error)
}

func catN(n int) string { return fmt.Sprintf("%6d\t", n) }

func callJSON(tb *tools.Toolbox, name string, args map[string]any) (json.RawMessage, error) {
	b, _ := json.Marshal(args)
	return tb.Call(context.Background(), name, b)
}

// matchedExactly reports whether a result says its text matched as given: an edit's
// matched absent or "exact", every hunk of a patch "exact". Such an edit is what exact
// matching makes of the text the tool was given.
func matchedExactly(out json.RawMessage) bool {
	var res struct {
		Matched *string `json:"matched"`
		Files   []struct {
			Matched []string `json:"matched"`
		} `json:"files"`
	}
	if json.Unmarshal(out, &res) != nil {
		return false
	}
	if res.Matched != nil && *res.Matched != "exact" {
		return false
	}
	for _, f := range res.Files {
		for _, m := range f.Matched {
			if m != "exact" {
				return false
			}
		}
	}
	return true
}

var ways = []way{
	{"agentool file_edit", tools.Agentool, catN, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		return callJSON(tb, "file_edit", map[string]any{"path": p, "old_text": o, "new_text": n})
	}},
	{"rtc edit", tools.RTC, catN, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		return callJSON(tb, "edit", map[string]any{"path": "/" + p, "old_string": o, "new_string": n})
	}},
	{"codex apply_patch", tools.Codex, func(n int) string { return fmt.Sprintf("L%d: ", n) }, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		return callJSON(tb, "apply_patch", map[string]any{"input": v4a(p, o, n)})
	}},
	{"anthropic str_replace", tools.Anthropic, catN, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		return callJSON(tb, "str_replace_based_edit_tool", map[string]any{"command": "str_replace", "path": "/" + p, "old_str": o, "new_str": n})
	}},
	{"gemini replace", tools.Gemini, catN, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		return callJSON(tb, "replace", map[string]any{"file_path": p, "old_string": o, "new_string": n, "instruction": "bench"})
	}},
	{"patch (SEARCH/REPLACE)", tools.Agentool, catN, func(tb *tools.Toolbox, p, o, n string) (json.RawMessage, error) {
		block := p + "\n<<<<<<< SEARCH\n" + strings.TrimSuffix(o, "\n") + "\n=======\n" + strings.TrimSuffix(n, "\n") + "\n>>>>>>> REPLACE\n"
		return callJSON(tb, "patch", map[string]any{"patch": block})
	}},
}

// v4a writes old -> new as a V4A update: common leading and trailing lines as context.
func v4a(path, old, new string) string {
	ol := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	nl := strings.Split(strings.TrimSuffix(new, "\n"), "\n")
	pre := 0
	for pre < len(ol) && pre < len(nl) && ol[pre] == nl[pre] {
		pre++
	}
	suf := 0
	for suf < len(ol)-pre && suf < len(nl)-pre && ol[len(ol)-1-suf] == nl[len(nl)-1-suf] {
		suf++
	}
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Update File: " + path + "\n@@\n")
	for _, l := range ol[:pre] {
		b.WriteString(" " + l + "\n")
	}
	for _, l := range ol[pre : len(ol)-suf] {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range nl[pre : len(nl)-suf] {
		b.WriteString("+" + l + "\n")
	}
	for _, l := range ol[len(ol)-suf:] {
		b.WriteString(" " + l + "\n")
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

type tally struct{ correct, refused, wrong, wrongExact int }

func run(edits []edit, w io.Writer, verbose bool) {
	ctx := context.Background()
	off := false
	results := map[string]map[string]*tally{}
	for _, wy := range ways {
		results[wy.name] = map[string]*tally{}
		for _, pt := range perturbations {
			t := &tally{}
			results[wy.name][pt.name] = t
			for _, e := range edits {
				o, n := pt.apply(e, e.old, e.new, wy.prefix)
				if o == n {
					t.correct++ // nothing to do: a no-op perturbation of a no-op edit
					continue
				}
				s := mem.New()
				ws := llmfs.New(s, &llmfs.Options{})
				if _, err := ws.Write(ctx, e.path, e.before, llmfs.WriteOptions{}); err != nil {
					panic(err)
				}
				tb, err := tools.NewWithOptions(ws, wy.dialect, &tools.Options{RequireRead: &off})
				if err != nil {
					panic(err)
				}
				out, err := wy.call(tb, e.path, o, n)
				got := readAll(ctx, ws, e.path)
				switch {
				case err != nil:
					t.refused++
					if got != e.before {
						t.wrong++ // refused, yet changed: must never happen
					}
					if verbose {
						fmt.Fprintf(w, "REFUSED %s / %s: %s:%d: %v\n", wy.name, pt.name, e.path, e.line, err)
					}
				case got == e.after:
					t.correct++
				default:
					t.wrong++
					// As exact matching would make it: the old text occurs once and
					// replacing it gives this, or the tool says it matched as given (a
					// line-based form whose lines say something else than o and n: a
					// dropped final newline there drops a last blank line).
					exact := strings.Count(e.before, o) == 1 && strings.Replace(e.before, o, n, 1) == got || matchedExactly(out)
					if exact {
						t.wrongExact++
					}
					if verbose {
						fmt.Fprintf(w, "WRONG %s / %s: %s:%d (as exact: %v)\n--- old\n%q\n--- new\n%q\n--- result\n%s\n", wy.name, pt.name, e.path, e.line, exact, o, n, out)
					}
				}
			}
		}
	}
	fmt.Fprintf(w, "correct/refused/wrong per tool and perturbation; \"as exact\": wrong edits exact matching makes too\n\n")
	fmt.Fprintf(w, "| tool | %s |\n|---|", strings.Join(names(), " | "))
	for range perturbations {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, wy := range ways {
		fmt.Fprintf(w, "| %s |", wy.name)
		for _, pt := range perturbations {
			t := results[wy.name][pt.name]
			total := t.correct + t.refused + t.wrong
			cell := fmt.Sprintf(" %.1f%% %d/%d/%d", 100*float64(t.correct)/float64(max(total, 1)), t.correct, t.refused, t.wrong)
			if t.wrongExact > 0 {
				cell += fmt.Sprintf(" (%d as exact)", t.wrongExact)
			}
			fmt.Fprint(w, cell+" |")
		}
		fmt.Fprintln(w)
	}
}

func names() []string {
	var out []string
	for _, p := range perturbations {
		out = append(out, p.name)
	}
	sort.SliceStable(out, func(i, j int) bool { return false })
	return out
}

func readAll(ctx context.Context, ws *llmfs.Workspace, p string) string {
	f, err := ws.Store().Open(ctx, p)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}
