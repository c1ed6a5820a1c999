//go:build !js && !wasip1

package console_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/llmfs/llmfs/internal/browsertest"
)

// key presses one key (a kb constant or a printable character) in the page.
func (b *browser) key(k string, opts ...chromedp.KeyOption) {
	b.t.Helper()
	b.run("pressing "+fmt.Sprintf("%q", k), chromedp.KeyEvent(k, opts...))
}

// focused is the focused element's data-path, else its text.
func (b *browser) focused() string {
	var s string
	b.eval(`(document.activeElement?.dataset.path ?? document.activeElement?.textContent ?? "").trim()`, &s)
	return s
}

// TestConsoleLargeDirectory: a directory of 10,000 entries opens at once with only its
// first rows rendered, the rest come as the tree scrolls, and its last file is found by
// scrolling and opened; find finds another.
func TestConsoleLargeDirectory(t *testing.T) {
	browsertest.Chromium(t, "the console's browser tests") // skips before writing 10,000 files
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 10000
	for i := range n {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%05d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root)
	b := startBrowser(t)
	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)

	var ms float64
	b.eval(`(async () => { const t = performance.now(); await fetch("api/list?path=big", {headers: {Authorization: "Bearer " + sessionStorage.getItem("llmfs-token")}}).then(r => r.json()); return performance.now() - t; })()`, &ms)
	t.Logf("GET /api/list of 10,000 entries: %.0f ms", ms)
	start := time.Now()
	b.eval(`document.querySelector('#tree button[data-path="big"]').click()`, nil)
	b.wait("big/ listed", `!!document.querySelector('#tree button[data-path="big/f00000.txt"]')`, 10*time.Second)
	t.Logf("10,000 entries: the first rows shown %v after the click", time.Since(start))
	var rendered int
	b.eval(`document.querySelectorAll("#tree button.file").length`, &rendered)
	if rendered >= n {
		t.Errorf("all %d rows rendered at once; want the first chunks only", rendered)
	}
	b.screenshot("large-directory")

	// Scroll the tree to its end until the last file is there (each scroll renders more).
	last := `document.querySelector('#tree button[data-path="big/f09999.txt"]')`
	start = time.Now()
	scrolls := 0
	for found := false; !found; {
		if time.Since(start) > 3*time.Minute {
			b.eval(`document.querySelectorAll("#tree button.file").length`, &rendered)
			t.Fatalf("after %d scrolls in %v the last file is not rendered (%d rows)", scrolls, time.Since(start), rendered)
		}
		var r struct {
			Found   bool
			Scrolls int
		}
		b.eval(`(async () => {
			const t = document.getElementById("tree");
			for (let i = 0; i < 10; i++) {
				if (`+last+`) return {Found: true, Scrolls: i};
				t.scrollTop = t.scrollHeight;
				await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
			}
			return {Found: !!`+last+`, Scrolls: 10};
		})()`, &r)
		found, scrolls = r.Found, scrolls+r.Scrolls
	}
	t.Logf("scrolled to the 10,000th entry: %d scrolls in %v", scrolls, time.Since(start))
	b.eval(`document.querySelectorAll("#tree button.file").length`, &rendered)
	if rendered != n {
		t.Errorf("%d rows after scrolling to the end, want %d", rendered, n)
	}
	b.eval(last+`.click()`, nil)
	b.wait("f09999.txt open", `document.getElementById("viewtitle").textContent === "big/f09999.txt" && document.getElementById("L1")?.textContent.includes("file 9999")`, 10*time.Second)
	b.screenshot("large-directory-end")

	b.eval(`(document.getElementById("qkind").value = "find", document.getElementById("q").value = "f04321.txt", document.getElementById("search").requestSubmit())`, nil)
	b.wait("the find result", `document.querySelector("#results .link")?.textContent === "big/f04321.txt"`, 10*time.Second)
	b.eval(`document.querySelector("#results .link").click()`, nil)
	b.wait("f04321.txt open", `document.getElementById("L1")?.textContent.includes("file 4321")`, 10*time.Second)
}

// TestConsoleKeyboard drives the console by keys alone: Tab reaches the tree (one tab
// stop), the arrows move in it and open and close a directory, Enter opens a file, the
// focus is visible, and Tab goes on to the viewer's buttons, where Enter edits.
func TestConsoleKeyboard(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{"README.md": "# hello\n", "notes/todo.txt": "one\ntwo\n", "zeta.txt": "z\n"} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root)
	b := startBrowser(t)
	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
	var order []string
	b.eval(`[...document.querySelectorAll("#tree > ul > li > button")].map(b => b.dataset.path)`, &order)
	t.Logf("tree order: %v", order)

	// Tab from the top: the search box, its kind, then the tree.
	for i := 0; ; i++ {
		b.key(kb.Tab)
		var inTree bool
		b.eval(`!!document.activeElement.closest("#tree")`, &inTree)
		if inTree {
			break
		}
		if i == 5 {
			t.Fatalf("5 tabs did not reach the tree (focus on %q)", b.focused())
		}
	}
	if got := b.focused(); got != order[0] {
		t.Errorf("the tree's tab stop is %q, want its first item %q", got, order[0])
	}
	var outline string
	b.eval(`getComputedStyle(document.activeElement).outlineStyle`, &outline)
	if outline == "none" {
		t.Error("the focused tree item has no visible outline")
	}
	var stops int
	b.eval(`document.querySelectorAll('#tree [tabindex="0"]').length`, &stops)
	if stops != 1 {
		t.Errorf("the tree has %d tab stops, want 1", stops)
	}

	// Down to notes/, open it with the right arrow, into it, Enter opens todo.txt.
	for i := 0; b.focused() != "notes"; i++ {
		if i == len(order) {
			t.Fatalf("the down arrow never reached notes/ (at %q)", b.focused())
		}
		b.key(kb.ArrowDown)
	}
	b.key(kb.ArrowRight)
	b.wait("notes/ open", `!!document.querySelector('#tree button[data-path="notes/todo.txt"]')`, 10*time.Second)
	b.key(kb.ArrowRight)
	if got := b.focused(); got != "notes/todo.txt" {
		t.Errorf("the right arrow on an open directory went to %q, want its first entry", got)
	}
	b.key(kb.Enter)
	b.wait("todo.txt open", `document.getElementById("viewtitle").textContent === "notes/todo.txt"`, 10*time.Second)
	b.screenshot("keyboard-tree")
	b.key(kb.ArrowDown)
	if got := b.focused(); got != order[len(order)-1] && got != "zeta.txt" {
		t.Errorf("the down arrow from the last entry of notes/ went to %q", got)
	}
	b.key(kb.ArrowUp)
	b.key(kb.ArrowLeft) // to the parent
	if got := b.focused(); got != "notes" {
		t.Errorf("the left arrow in notes/ went to %q, want notes", got)
	}
	b.key(kb.ArrowLeft) // closes it
	var expanded string
	b.eval(`document.querySelector('#tree button[data-path="notes"]').getAttribute("aria-expanded")`, &expanded)
	if expanded != "false" {
		t.Errorf("the left arrow left notes/ aria-expanded=%s", expanded)
	}
	b.key(kb.End)
	if got := b.focused(); got != order[len(order)-1] {
		t.Errorf("End went to %q, want %q", got, order[len(order)-1])
	}
	b.key(kb.Home)
	if got := b.focused(); got != order[0] {
		t.Errorf("Home went to %q, want %q", got, order[0])
	}

	// Tab leaves the tree for the viewer's buttons: Enter on Edit opens the editor.
	b.key(kb.Tab)
	if got := b.focused(); got != "Edit" {
		t.Fatalf("Tab from the tree went to %q, want the viewer's Edit", got)
	}
	b.key(kb.Enter)
	b.wait("the editor, focused", `document.activeElement?.id === "editor"`, 10*time.Second)
	b.key(kb.End, chromedp.KeyModifiers(chromedp.ModifierCtrl))
	b.key("!")
	// Back to Save (Shift+Tab twice: Cancel, then Save) and Enter.
	b.key(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
	b.key(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
	if got := b.focused(); got != "Save" {
		t.Fatalf("Shift+Tab from the editor went to %q, want Save", got)
	}
	b.key(kb.Enter)
	b.wait("saved", `document.querySelector("#L3 td:nth-child(2)")?.textContent === "!"`, 10*time.Second)
	if got := readFile(t, filepath.Join(root, "notes/todo.txt")); got != "one\ntwo\n!" {
		t.Errorf("todo.txt after the keyboard edit: %q", got)
	}
	b.screenshot("keyboard-edit")
}

// TestConsoleNarrow: at 700 px wide every view fits: nothing scrolls sideways.
func TestConsoleNarrow(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("a long line without a break ", 20)
	for name, content := range map[string]string{"README.md": "# hello\n" + long + "\n", "a/deeply/nested/directory/with-a-rather-long-file-name.txt": long} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root, "--quota-bytes", "1M", "--max-files", "100")
	b := startBrowser(t)
	b.run("a 700 px window", chromedp.EmulateViewport(700, 900))
	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
	overflow := func(view string) {
		t.Helper()
		var o struct{ Scroll, Client float64 }
		b.eval(`({Scroll: document.documentElement.scrollWidth, Client: document.documentElement.clientWidth})`, &o)
		if o.Scroll > o.Client {
			t.Errorf("%s at 700 px: the page is %v px wide, the window %v", view, o.Scroll, o.Client)
		}
	}
	overflow("the tree")
	b.screenshot("narrow-tree")
	b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "README.md").click()`, nil)
	b.wait("README.md open", `!!document.getElementById("L2")`, 10*time.Second)
	overflow("a file with a long line")
	b.eval(`document.querySelector('#tree button[data-path="a"]').click()`, nil)
	b.wait("a/ open", `!!document.querySelector('#tree button[data-path="a/deeply"]')`, 10*time.Second)
	overflow("an open directory")
	b.screenshot("narrow-file")
	b.eval(`[...document.querySelectorAll("#viewactions button")].find(b => b.textContent === "Edit").click()`, nil)
	b.wait("the editor", `!!document.getElementById("editor")`, 10*time.Second)
	overflow("the editor")
}
