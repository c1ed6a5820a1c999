// Command testreport reads `go test -json` on standard input and prints what `go test`
// prints without -v (a line per package, the output of failing tests), then every skipped
// test with its reason, which plain `go test ./...` hides. .ci/run pipes the whole suite
// through it:
//
//	go test -json -count=1 ./... | go run ./internal/ci/testreport
//
// It exits 1 when a test failed, a package did not build, or a test skipped because a
// dependency CI provides is missing: PostgreSQL, Chromium, the Node.js interop peers,
// ripgrep or git (recognised by its skip message; see [required]). -allow-missing turns the last
// check off for a machine that lacks them on purpose.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// required are the dependencies CI installs, each with the words its tests' skip
// messages use. A test that skips saying one of them is a CI failure: the dependency
// should have been there.
var required = []struct {
	name string
	re   *regexp.Regexp
}{
	{"PostgreSQL", regexp.MustCompile(`(?i)postgres`)},
	{"Chromium", regexp.MustCompile(`(?i)chromium`)},
	{"the Node.js interop peers", regexp.MustCompile(`(?i)\bnode(\.js)?\b|\bnpm\b|interop|node_modules|install\.sh`)},
	{"ripgrep", regexp.MustCompile(`(?i)ripgrep|\brg\b`)},
	{"git", regexp.MustCompile(`(?i)\bgit is not installed`)},
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// skip is a skipped test and why.
type skip struct {
	pkg, test, reason string
	needs             string // the required dependency it names, if any
}

type report struct {
	out     io.Writer
	skips   []skip
	failed  bool
	pending map[string][]string // output of running tests, by package and test
}

func main() {
	allowMissing := flag.Bool("allow-missing", false, "do not fail when a test skips for a dependency CI should have")
	flag.Parse()
	r := &report{out: os.Stdout, pending: map[string][]string{}}
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	if !r.summary(*allowMissing) {
		os.Exit(1)
	}
}

// read consumes the event stream. Lines that are not JSON (a build failure's compiler
// output) are printed as they are.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(r.out, "%s\n", line)
			if strings.HasPrefix(string(line), "FAIL") {
				r.failed = true
			}
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

func (r *report) event(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output": // the compiler's messages, before the package's FAIL line
		io.WriteString(r.out, e.Output)
	case "build-fail":
		r.failed = true
	case "output":
		if e.Test == "" {
			// The package's own lines: "ok  pkg 1.2s", "FAIL pkg", "--- FAIL" summaries.
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS\n") {
				io.WriteString(r.out, e.Output)
			}
			return
		}
		r.pending[key] = append(r.pending[key], e.Output)
	case "skip":
		if e.Test != "" {
			reason := skipReason(r.pending[key])
			s := skip{pkg: e.Package, test: e.Test, reason: reason}
			for _, d := range required {
				if d.re.MatchString(reason) {
					s.needs = d.name
					break
				}
			}
			r.skips = append(r.skips, s)
		}
		delete(r.pending, key)
	case "fail":
		r.failed = true
		if e.Test != "" {
			for _, l := range r.pending[key] {
				io.WriteString(r.out, l)
			}
		}
		delete(r.pending, key)
	case "pass":
		delete(r.pending, key)
	}
}

// skipReason is what a skipped test printed, without the framework's own lines: the
// t.Skip message ("file_test.go:12: no chromium on PATH ...").
func skipReason(lines []string) string {
	var parts []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

// summary prints the skips and reports whether the run passes.
func (r *report) summary(allowMissing bool) bool {
	sort.SliceStable(r.skips, func(i, j int) bool { return r.skips[i].pkg < r.skips[j].pkg })
	fmt.Fprintf(r.out, "\n== %d skipped tests\n", len(r.skips))
	var missing []skip
	for _, s := range r.skips {
		mark := ""
		if s.needs != "" {
			mark = "  [needs " + s.needs + "]"
			missing = append(missing, s)
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(s.pkg, "github.com/llmfs/llmfs"), "/")
		if pkg == "" {
			pkg = "."
		}
		fmt.Fprintf(r.out, "  %s %s: %s%s\n", pkg, s.test, s.reason, mark)
	}
	ok := !r.failed
	if len(missing) > 0 && !allowMissing {
		fmt.Fprintf(r.out, "FAIL: %d tests skipped for a dependency CI installs (%s and others above)\n", len(missing), missing[0].needs)
		ok = false
	}
	if r.failed {
		fmt.Fprintln(r.out, "FAIL: some tests failed or did not build (above)")
	}
	return ok
}
