//go:build !js && !wasip1

package console_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer sets the token on every request of the MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// agent connects to the MCP endpoint of the server whose console URL is consoleURL.
func agent(t *testing.T, consoleURL string) *mcp.ClientSession {
	t.Helper()
	base, token, _ := strings.Cut(consoleURL, "/#token=")
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: %v", name, res.Content[0].(*mcp.TextContent).Text)
	}
}

// TestConsoleReview drives the review view of `llmfs serve --review` in headless Chromium:
// an agent's edits through MCP stay pending and appear in the view with their diffs
// (unified and side by side); applying hunk 1 of a file and discarding the rest leaves the
// host file exactly as the hunk showed; a file changed on the host meanwhile is a
// conflict (FILE_CHANGED), shown with what changed, and the host file is kept.
func TestConsoleReview(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir()) // the pending layer, this test's own
	root := t.TempDir()
	for name, content := range map[string]string{"a.txt": twelve, "c.txt": "keep\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root, "--review")
	b := startBrowser(t)
	cs := agent(t, url)
	callTool(t, cs, "file_write", map[string]any{"path": "a.txt", "content": strings.Replace(strings.Replace(twelve, "one", "ONE", 1), "twelve", "TWELVE", 1)})
	callTool(t, cs, "file_write", map[string]any{"path": "new.txt", "content": "made by the agent\n"})
	callTool(t, cs, "file_write", map[string]any{"path": "c.txt", "content": "the agent's\n"})
	if got := readFile(t, filepath.Join(root, "a.txt")); got != twelve {
		t.Fatalf("under --review the agent's write reached the host: %q", got)
	}

	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
	b.wait("the pending changes", `document.querySelectorAll("#review li").length === 3`, 10*time.Second)
	var list string
	b.eval(`document.getElementById("review").innerText`, &list)
	for _, want := range []string{"a.txt +2 −2", "new.txt +1 −0", "c.txt +1 −1", "CREATED", "MODIFIED"} {
		if !strings.Contains(strings.ToUpper(list), strings.ToUpper(want)) {
			t.Errorf("the review list lacks %q:\n%s", want, list)
		}
	}
	var mode string
	b.eval(`document.getElementById("mode").textContent`, &mode)
	if mode != "review" {
		t.Errorf("the mode shown is %q, want review", mode)
	}
	b.screenshot("review-list")

	// a.txt's diff: two hunks, unified and side by side.
	clickPending := func(path string) {
		b.eval(`[...document.querySelectorAll("#review .pending")].find(b => b.textContent === "`+path+`").click()`, nil)
	}
	clickPending("a.txt")
	b.wait("a.txt's hunks", `document.querySelectorAll("#reviewdiff .hunkbox").length === 2`, 10*time.Second)
	var hunk1 string
	b.eval(diffText("#hunk-1"), &hunk1)
	if !strings.Contains(hunk1, "-one\n+ONE") || strings.Contains(hunk1, "TWELVE") {
		t.Errorf("hunk 1 shows:\n%s", hunk1)
	}
	b.screenshot("review-diff")
	b.eval(`document.getElementById("sidebyside").click()`, nil)
	b.wait("the side-by-side hunks", `[...document.querySelectorAll("#hunk-1 table.split td.add")].some(td => td.textContent === "ONE")`, 10*time.Second)
	b.screenshot("review-side-by-side")

	// Apply hunk 1, then discard the rest of the file.
	b.eval(`document.querySelector("#hunk-1 .applyhunk").click()`, nil)
	b.wait("hunk 1 applied", `document.querySelectorAll("#reviewdiff .hunkbox").length === 1 && document.getElementById("review").innerText.includes("a.txt +1 −1")`, 10*time.Second)
	if got, want := readFile(t, filepath.Join(root, "a.txt")), strings.Replace(twelve, "one", "ONE", 1); got != want {
		t.Fatalf("after applying hunk 1 the host's a.txt is %q, want %q", got, want)
	}
	b.eval(`document.querySelector("#viewactions .discardfile").click()`, nil)
	b.wait("a.txt resolved", `![...document.querySelectorAll("#review .pending")].some(b => b.textContent === "a.txt")`, 10*time.Second)
	want := strings.Replace(twelve, "one", "ONE", 1)
	if got := readFile(t, filepath.Join(root, "a.txt")); got != want {
		t.Fatalf("after discarding the rest the host's a.txt is %q, want %q", got, want)
	}
	// The file as the viewer shows it now is the host's, line for line.
	b.wait("the tree", `[...document.querySelectorAll("#tree button")].some(b => b.textContent === "a.txt")`, 10*time.Second)
	b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "a.txt").click()`, nil)
	b.wait("a.txt shown", `document.getElementById("viewtitle").textContent === "a.txt" && !!document.getElementById("L12")`, 10*time.Second)
	var shown []string
	b.eval(`[...document.querySelectorAll("#viewbody table.code tr td:nth-child(2)")].map(td => td.textContent)`, &shown)
	if got := strings.Join(shown, "\n") + "\n"; got != want {
		t.Errorf("the viewer shows %q, the host holds %q", got, want)
	}

	// c.txt changes on the host behind the agent: applying it is a conflict, shown.
	if err := os.WriteFile(filepath.Join(root, "c.txt"), []byte("a person's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clickPending("c.txt")
	b.wait("c.txt's diff", `document.getElementById("viewtitle").textContent.includes("c.txt") && !!document.querySelector("#reviewdiff .hunkbox")`, 10*time.Second)
	b.eval(`document.querySelector("#viewactions .applyfile").click()`, nil)
	b.wait("the conflict", `!!document.querySelector("#reviewdiff .conflictbox")`, 10*time.Second)
	var box string
	b.eval(`document.querySelector("#reviewdiff .conflictbox").innerText`, &box)
	for _, w := range []string{"FILE_CHANGED", "c.txt was modified", "<<<<<<< current\na person's\n=======\nthe agent's\n>>>>>>> agent"} {
		if !strings.Contains(box, w) {
			t.Errorf("the conflict box lacks %q:\n%s", w, box)
		}
	}
	var flagged bool
	b.eval(`[...document.querySelectorAll("#review li.conflict")].some(li => li.textContent.includes("c.txt") && li.textContent.includes("FILE_CHANGED"))`, &flagged)
	if !flagged {
		t.Error("c.txt is not flagged as a conflict in the review list")
	}
	if got := readFile(t, filepath.Join(root, "c.txt")); got != "a person's\n" {
		t.Errorf("the conflicting apply overwrote the host's c.txt: %q", got)
	}
	b.screenshot("review-conflict")
	// Readable at 700 px: the review view does not scroll sideways.
	b.run("a narrow window", chromedp.EmulateViewport(700, 900))
	var o struct{ Scroll, Client float64 }
	b.eval(`({Scroll: document.documentElement.scrollWidth, Client: document.documentElement.clientWidth})`, &o)
	if o.Scroll > o.Client {
		t.Errorf("the review view at 700 px is %v px wide", o.Scroll)
	}
	b.screenshot("review-narrow")
	b.run("a wide window", chromedp.EmulateViewport(1280, 800))
	for _, e := range b.consoleErrors() {
		// The status line reports the conflict; a refused request is no page error.
		t.Errorf("browser console: %s", e)
	}

	// The created file applies whole; discarding c.txt keeps the person's version.
	clickPending("new.txt")
	b.wait("new.txt's diff", `document.getElementById("viewtitle").textContent.includes("new.txt")`, 10*time.Second)
	b.eval(`document.querySelector("#viewactions .applyfile").click()`, nil)
	b.wait("new.txt applied", `![...document.querySelectorAll("#review .pending")].some(b => b.textContent === "new.txt")`, 10*time.Second)
	if got := readFile(t, filepath.Join(root, "new.txt")); got != "made by the agent\n" {
		t.Errorf("new.txt on the host: %q", got)
	}
	clickPending("c.txt")
	b.wait("c.txt's diff", `document.getElementById("viewtitle").textContent.includes("c.txt")`, 10*time.Second)
	b.eval(`document.querySelector("#viewactions .discardfile").click()`, nil)
	b.wait("nothing pending", `document.querySelectorAll("#review li").length === 0`, 10*time.Second)
	if got := readFile(t, filepath.Join(root, "c.txt")); got != "a person's\n" {
		t.Errorf("c.txt after the discard: %q", got)
	}
	b.screenshot("review-done")
}

// diffText is a JavaScript expression: the unified diff shown under selector, as text (each
// row's sign and text, the gutters left out).
func diffText(selector string) string {
	return `[...document.querySelectorAll("` + selector + ` table.unified tr")].map(tr => [...tr.querySelectorAll("td.sign, td.text")].map(td => td.textContent).join("")).join("\n")`
}
