//go:build !js && !wasip1

package console_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSaveConflict: issue 35.5. A save over a file an agent changed since it was opened
// offers "compare / keep mine / take theirs" (no "reload" that would drop the person's
// text): compare shows the file against the editor's text, keep mine writes it over the
// agent's (and only over what was compared), take theirs shows the agent's and writes
// nothing. The feed shows the agent as a short label (mcp and six characters of its
// session id), the full actor in the tooltip. At 1366 and 390 px, with screenshots.
func TestSaveConflict(t *testing.T) {
	root := t.TempDir()
	notes := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(notes, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := serve(t, root)
	b := startBrowser(t)
	cs := agent(t, url)
	mine := "one\nTWO by me\nthree\n"
	for i, width := range []int64{1366, 390} {
		shot := func(name string) { b.screenshot(name + "-" + itoa(width)) }
		b.run("the window", chromedp.EmulateViewport(width, 900))
		b.run("opening "+url, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
		if err := os.WriteFile(notes, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
			t.Fatal(err)
		}

		// Edit; the agent writes meanwhile; save.
		edit := func() {
			b.eval(`document.querySelector('#tree button[data-path="notes.txt"]').click()`, nil)
			b.wait("notes.txt", `document.getElementById("viewtitle").textContent === "notes.txt" && !!document.getElementById("L3")`, 10*time.Second)
			b.eval(`[...document.querySelectorAll("#viewactions button")].find(b => b.textContent === "Edit").click()`, nil)
			b.wait("the editor", `!!document.getElementById("editor")`, 10*time.Second)
			b.eval(`document.getElementById("editor").value = `+jsString(mine), nil)
			callTool(t, cs, "file_write", map[string]any{"path": "notes.txt", "content": "one\ntwo\nthree\nfour by the agent\n"})
			b.eval(`document.getElementById("save").click()`, nil)
			b.wait("the conflict", `!!document.getElementById("savebar")`, 10*time.Second)
		}
		edit()
		var bar struct {
			Text    string
			Buttons []string
			Editor  string
		}
		b.eval(`({Text: document.getElementById("savebar").textContent,
			Buttons: [...document.querySelectorAll("#savebar button, #viewactions button")].map(b => b.textContent),
			Editor: document.getElementById("editor").value})`, &bar)
		if !contains(bar.Text, "FILE_CHANGED", "notes.txt") || !equal(bar.Buttons, []string{"Save", "Cancel", "Compare", "Keep mine", "Take theirs"}) || bar.Editor != mine {
			t.Errorf("the conflict at %d px: %+v; want compare, keep mine, take theirs, the text kept", width, bar)
		}
		for _, s := range bar.Buttons {
			if strings.Contains(strings.ToLower(s), "reload") {
				t.Errorf("a %q button", s)
			}
		}
		b.eval(`document.getElementById("compare").click()`, nil)
		b.wait("the comparison", `!!document.querySelector("#conflictdiff table.unified")`, 10*time.Second)
		var cmp string
		b.eval(diffText("#conflictdiff"), &cmp)
		if !contains(cmp, "-two\n+TWO by me", "-four by the agent") {
			t.Errorf("the comparison at %d px:\n%s", width, cmp)
		}
		shot("save-conflict")

		if i == 0 {
			// Keep mine: the editor's text is written, as actor web.
			b.eval(`document.getElementById("keepmine").click()`, nil)
			b.wait("saved", `!document.getElementById("editor") && document.getElementById("L2")?.textContent.includes("TWO by me")`, 10*time.Second)
			if got := readFile(t, notes); got != mine {
				t.Errorf("after keep mine the file holds %q, want %q", got, mine)
			}
			if cs := changes(t, url); len(cs) == 0 || cs[0].Actor != "web" {
				t.Errorf("the newest change: %+v, want web's", cs[:min(1, len(cs))])
			}
		} else {
			// Take theirs: the agent's text shows, nothing is written.
			b.eval(`document.getElementById("taketheirs").click()`, nil)
			b.wait("theirs", `!document.getElementById("editor") && document.getElementById("L4")?.textContent.includes("four by the agent")`, 10*time.Second)
			if got := readFile(t, notes); got != "one\ntwo\nthree\nfour by the agent\n" {
				t.Errorf("after take theirs the file holds %q", got)
			}
		}

		// The agent in the feed: a short label, the full actor in the tooltip.
		b.wait("the agent in the feed", `[...document.querySelectorAll("#feed .who")].some(w => w.title.startsWith("mcp:"))`, 10*time.Second)
		var who struct{ Label, Title string }
		b.eval(`(() => { const w = [...document.querySelectorAll("#feed .who")].find(w => w.title.startsWith("mcp:")); return {Label: w.textContent, Title: w.title}; })()`, &who)
		// Issue 35.5: the MCP client's name (or "mcp") and six characters of the session id.
		label := regexp.MustCompile(`^([A-Za-z0-9._-]+) ([A-Za-z0-9_-]{1,6})$`).FindStringSubmatch(who.Label)
		named := label != nil && (strings.HasPrefix(who.Title, "mcp:"+label[1]+"/") || label[1] == "mcp" && strings.HasPrefix(who.Title, "mcp:"))
		if !named || !strings.Contains(who.Title, label[2]) || len(who.Title) <= len(who.Label) {
			t.Errorf("the agent's label %q, tooltip %q; want the client's name and six characters of the session id, the full actor in the tooltip", who.Label, who.Title)
		}
		b.eval(`document.getElementById("feed").scrollIntoView()`, nil)
		shot("feed-labels")
	}
	// The refused saves are in the browser's console as failed requests; nothing else may be.
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "409 (Conflict)") {
			t.Errorf("browser console: %s", e)
		}
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}
