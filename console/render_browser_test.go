//go:build !js && !wasip1

package console_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleRendering: issue 33 items 10 and 11, what a new user met in the console of a
// host directory. A tab is 4 columns; an "_" inside a word in Markdown makes nothing
// italic; grep's results are grouped by file, in the code font, with line numbers and the
// matches marked; AGENT.md, off by design on a host directory, shows as off with how to
// turn it on and no button that would write it. At 1366 and 390 px wide, with screenshots.
func TestConsoleRendering(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"main.go":     "package main\n\nfunc main() {\n\tname := \"snake_case\"\n\tprintln(name)\n}\n",
		"notes.md":    "# Notes\n\nThe my_var and snake_case names stay plain.\n\nThis is _real emphasis_.\n\nA last plain line.\n",
		"lib/util.go": "package lib\n\n// snake_case helpers\nfunc Snake() {}\n\n\n\n// more snake_case\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root)
	b := startBrowser(t)
	for _, width := range []int64{1366, 390} {
		shot := func(name string) { b.screenshot(name + "-" + itoa(width)) }
		b.run("the window", chromedp.EmulateViewport(width, 900))
		b.run("opening "+url, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)

		// AGENT.md is off, says how to turn it on, and offers no restore.
		b.wait("the system files", `document.getElementById("system").textContent.includes("off")`, 10*time.Second)
		var sys struct {
			Text    string
			Buttons int
		}
		b.eval(`({Text: document.getElementById("system").textContent, Buttons: document.querySelectorAll("#system button").length})`, &sys)
		if !contains(sys.Text, "AGENT.md", "off", "--agent-md") || sys.Buttons != 0 {
			t.Errorf("system files panel at %d px: %q with %d buttons; want AGENT.md off, how to turn it on, no button", width, sys.Text, sys.Buttons)
		}
		if _, err := os.Stat(filepath.Join(root, "AGENT.md")); !os.IsNotExist(err) {
			t.Errorf("AGENT.md in the person's tree: %v", err)
		}

		// A tab is 4 columns.
		b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "main.go").click()`, nil)
		b.wait("main.go", `document.getElementById("L4")?.textContent.includes("name")`, 10*time.Second)
		var tab string
		b.eval(`getComputedStyle(document.querySelector("#L4 td:last-child")).tabSize`, &tab)
		if tab != "4" {
			t.Errorf("tab-size in the file view = %q, want 4", tab)
		}
		shot("tabs")

		// snake_case in Markdown is not emphasis; _real emphasis_ is, and ends there.
		b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "notes.md").click()`, nil)
		b.wait("notes.md", `document.getElementById("L7")?.textContent.includes("last plain")`, 10*time.Second)
		var em []string
		b.eval(`[...document.querySelectorAll("#viewbody .hljs-emphasis")].map(e => e.textContent)`, &em)
		if len(em) != 1 || em[0] != "_real emphasis_" {
			t.Errorf("emphasis in notes.md: %q, want only _real emphasis_", em)
		}
		shot("markdown")

		// grep: grouped by file, code font, line numbers, matches marked.
		b.eval(`(document.getElementById("qkind").value = "grep", document.getElementById("q").value = "snake_case", document.getElementById("search").requestSubmit())`, nil)
		b.wait("the results", `document.querySelectorAll("#results .filehits").length === 3`, 10*time.Second)
		var res struct {
			Files, Marks []string
			Lines        []string
			Font         string
			Gaps         int
		}
		b.eval(`({Files: [...document.querySelectorAll("#results .filehits h3 .path")].map(e => e.textContent).sort(),
			Marks: [...new Set([...document.querySelectorAll("#results mark")].map(e => e.textContent))],
			Lines: [...document.querySelectorAll("#results .filehits")].find(s => s.querySelector(".path").textContent === "lib/util.go")
				.querySelectorAll(".hitrow td.n").values().map(e => e.textContent).toArray(),
			Font: getComputedStyle(document.querySelector("#results .hitrow td:last-child")).fontFamily,
			Gaps: document.querySelectorAll("#results tr.gap").length})`, &res)
		if !equal(res.Files, []string{"lib/util.go", "main.go", "notes.md"}) || !equal(res.Marks, []string{"snake_case"}) ||
			!equal(res.Lines, []string{"3", "8"}) || res.Gaps != 1 || !contains(res.Font, "monospace") {
			t.Errorf("grep results at %d px: %+v; want 3 files, the matches marked, util.go lines 3 and 8 with a gap between, a monospace font", width, res)
		}
		shot("search")
		b.eval(`document.querySelector("#results .hitrow .link").click()`, nil)
		b.wait("the hit opened", `!!document.querySelector("tr.hit")`, 10*time.Second)

		var o struct{ Scroll, Client float64 }
		b.eval(`({Scroll: document.documentElement.scrollWidth, Client: document.documentElement.clientWidth})`, &o)
		if o.Scroll > o.Client {
			t.Errorf("at %d px the page is %v px wide", width, o.Scroll)
		}
		b.eval(`document.querySelector("aside").scrollIntoView()`, nil)
		shot("sidebar")
	}
	for _, e := range b.consoleErrors() {
		t.Errorf("browser console: %s", e)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func equal(a, b []string) bool { return slices.Equal(a, b) }
