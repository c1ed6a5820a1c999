//go:build !js && !wasip1

package web_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/browsertest"
)

// serveDemo starts `llmfs serve --web` (cmd/llmfs built from the source tree) on an empty
// directory and returns the demo's URL it printed.
func serveDemo(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(releaseBinary(t), "serve", "--web", "--root", t.TempDir(), "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "LLMFS_TOKEN=", "LLMFS_CACHE_DIR="+t.TempDir())
	return browsertest.StartURL(t, cmd, regexp.MustCompile(`^llmfs: serving the browser demo at (http://\S+/demo/)$`))
}

// wait polls a JavaScript condition until it holds.
func (b *browser) wait(what, cond string, timeout time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout+5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(timeout),
		chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		var state string
		b.eval(`document.body.innerText.slice(0, 2000)`, &state)
		b.t.Fatalf("waiting for %s: %v\nthe page: %s", what, err, state)
	}
}

// waitConsole waits until the console has loaded, and fails if it could not.
func (b *browser) waitConsole() {
	b.t.Helper()
	b.wait("the console", "!!(window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error))", 90*time.Second)
	var errText *string
	b.eval("window.llmfsConsole.error", &errText)
	if errText != nil {
		b.t.Fatalf("the console failed to start: %s", *errText)
	}
}

// apiRead reads a file through the console's API in the page, as the console does.
func (b *browser) apiRead(path string) string {
	b.t.Helper()
	var out struct {
		Content string `json:"content"`
	}
	b.eval(`window.llmfsConsole.fs.fetch("api/read?path=`+path+`").then((r) => r.json())`, &out)
	return out.Content
}

// TestDemoConsole opens /demo/ of `llmfs serve --web` in headless Chromium: the same
// console as at "/", on the in-browser core (llmfs.wasm over IndexedDB). Issue 16.3: the
// tree lists the demo's seeded files with no token asked; a person's edit and a new file
// made in the console are in IndexedDB after a reload; the feed shows them as actor "web"
// (and an agent's tool call in the same browser as its own actor); undo from the feed
// puts the file back; /AGENT.md's "restore default" and a checkpoint's restore work; the
// browser console stays clean.
func TestDemoConsole(t *testing.T) {
	exe := chromium(t)
	url := serveDemo(t)
	b := startBrowser(t, exe, t.TempDir())
	start := time.Now()
	b.run("loading the demo", chromedp.Navigate(url))
	b.waitConsole()
	t.Logf("the demo console was ready after %v", time.Since(start))

	var shown struct {
		Login bool   `json:"login"`
		App   bool   `json:"app"`
		Tree  string `json:"tree"`
		Info  string `json:"info"`
	}
	b.eval(`({login: !document.getElementById("login").hidden, app: !document.getElementById("app").hidden,
		tree: document.getElementById("tree").textContent, info: document.querySelector("header").textContent})`, &shown)
	if shown.Login || !shown.App {
		t.Fatalf("the demo shows the token screen (login=%v app=%v)", shown.Login, shown.App)
	}
	for _, want := range []string{"README.md", "notes/", "src/", "AGENT.md"} {
		if !strings.Contains(shown.Tree, want) {
			t.Errorf("the tree %q does not list %s", shown.Tree, want)
		}
	}
	if !strings.Contains(shown.Info, "in this browser") {
		t.Errorf("the header says %q, not that it runs in the browser", shown.Info)
	}

	// A person edits README.md in the page's editor.
	b.eval(`([...document.querySelectorAll("#tree button")].find((b) => b.textContent === "README.md").click(), 0)`, nil)
	b.wait("README.md in the viewer", `document.getElementById("viewtitle").textContent === "README.md"`, 10*time.Second)
	b.eval(`([...document.querySelectorAll("#viewactions button")].find((b) => b.textContent === "Edit").click(), 0)`, nil)
	b.wait("the editor", `!!document.getElementById("editor")`, 5*time.Second)
	b.eval(`(document.getElementById("editor").value = "# edited in the demo\n", document.getElementById("save").click(), 0)`, nil)
	b.wait("the saved file in the viewer", `!document.getElementById("editor") && document.getElementById("viewbody").textContent.includes("edited in the demo")`, 10*time.Second)
	// A new file, made through the same API the page uses.
	b.eval(`window.llmfsConsole.fs.fetch("api/file?path=made/new.txt", {method: "PUT", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({content: "new in the demo\n", base: ""})}).then((r) => r.status)`, nil)
	b.wait("both changes in the feed as web", `(() => {
		const items = [...document.querySelectorAll("#feed li")].map((li) => li.textContent);
		return items.some((t) => t.startsWith("web") && t.includes("README.md")) && items.some((t) => t.startsWith("web") && t.includes("made/new.txt"));
	})()`, 5*time.Second)
	// An agent's tool call in the same browser shows too, under the tools' actor.
	b.eval(`window.llmfsConsole.fs.call("write", {path: "/agent.txt", content: "from a tool\n"}).then(() => 0)`, nil)
	b.wait("the tool call in the feed", `[...document.querySelectorAll("#feed li")].some((li) => li.textContent.includes("agent.txt") && !li.textContent.startsWith("web"))`, 5*time.Second)

	// A reload: the files and their history are in IndexedDB.
	b.run("reloading", chromedp.Reload())
	b.waitConsole()
	b.wait("the new directory in the tree", `document.getElementById("tree").textContent.includes("made/")`, 10*time.Second)
	if got := b.apiRead("README.md"); got != "# edited in the demo\n" {
		t.Errorf("README.md after a reload: %q", got)
	}
	if got := b.apiRead("made/new.txt"); got != "new in the demo\n" {
		t.Errorf("made/new.txt after a reload: %q", got)
	}
	b.wait("the journal's changes in the feed after the reload", `[...document.querySelectorAll("#feed li")].some((li) => li.textContent.startsWith("web") && li.textContent.includes("README.md"))`, 5*time.Second)

	// Undo the edit from the feed: README.md is the seeded text again.
	b.eval(`([...document.querySelectorAll("#feed li")].find((li) => li.textContent.includes("README.md")).querySelector(".undo").click(), 0)`, nil)
	b.wait("the undo", `document.getElementById("status").textContent.includes("undone")`, 10*time.Second)
	if got := b.apiRead("README.md"); !strings.HasPrefix(got, "# llmfs in your browser") {
		t.Errorf("README.md after undo: %.80q", got)
	}
	b.wait("the undo in the feed", `document.querySelector("#feed li").textContent.includes("README.md")`, 5*time.Second)

	// A person's edit of /AGENT.md shows it "edited"; "Restore default" regenerates it.
	b.eval(`window.llmfsConsole.fs.fetch("api/file?path=AGENT.md", {method: "PUT", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({content: "my own notes\n"})}).then((r) => r.status)`, nil)
	b.wait("AGENT.md edited", `document.getElementById("system").textContent.includes("edited")`, 5*time.Second)
	b.eval(`(window.confirm = () => true, document.querySelector("#system .restoredefault").click(), 0)`, nil)
	b.wait("AGENT.md generated again", `document.getElementById("system").textContent.includes("generated")`, 5*time.Second)
	if got := b.apiRead("AGENT.md"); strings.Contains(got, "my own notes") {
		t.Errorf("AGENT.md after restore default: %.80q", got)
	}
	// A checkpoint, a change after it, and a restore that takes the change back.
	b.eval(`(document.getElementById("cpname").value = "before", document.querySelector("#cpform button").click(), 0)`, nil)
	b.wait("the checkpoint", `document.getElementById("checkpoints").textContent.includes("before")`, 5*time.Second)
	b.eval(`window.llmfsConsole.fs.fetch("api/file?path=notes/todo.md", {method: "PUT", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({content: "changed after the checkpoint\n"})}).then((r) => r.status)`, nil)
	b.wait("the change in the feed", `document.querySelector("#feed li").textContent.includes("notes/todo.md")`, 5*time.Second)
	b.eval(`(window.confirm = () => true, document.querySelector("#checkpoints .restore").click(), 0)`, nil)
	b.wait("the restore", `document.getElementById("status").textContent.includes("file(s)")`, 10*time.Second)
	if got := b.apiRead("notes/todo.md"); !strings.HasPrefix(got, "- [ ] read the README") {
		t.Errorf("notes/todo.md after restoring the checkpoint: %.80q", got)
	}
	if out := os.Getenv("LLMFS_SCREENSHOT"); out != "" {
		png := get(b, "a screenshot", chromedp.FullScreenshot(100))
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Error(err)
		}
	}
	b.noConsoleErrors()
}
