//go:build !js && !wasip1

package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/browsertest"
)

var (
	buildOnce sync.Once
	builtExe  string
	buildErr  error
)

// llmfsBinary builds cmd/llmfs from the source tree once per test binary.
func llmfsBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "llmfs-console-test")
		if err != nil {
			buildErr = err
			return
		}
		builtExe = filepath.Join(dir, "llmfs")
		out, err := exec.Command("go", "build", "-o", builtExe, "../cmd/llmfs").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtExe
}

// serve starts `llmfs serve` on root (with more flags, if any) and returns the console URL
// it printed.
func serve(t *testing.T, root string, flags ...string) string {
	t.Helper()
	cmd := exec.Command(llmfsBinary(t), append([]string{"serve", "--root", root, "--addr", "127.0.0.1:0"}, flags...)...)
	cmd.Env = append(os.Environ(), "LLMFS_TOKEN=")
	return browsertest.StartURL(t, cmd, regexp.MustCompile(`^llmfs: console at (http://127\.0\.0\.1:\d+/#token=\S+)$`))
}

// browser is one headless Chromium with one tab, collecting console errors.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string
}

// startBrowser starts Chromium; its console errors fail the test at its end.
// Start the servers the page talks to first: cleanups run last-in first-out, so the
// browser then stops (and its console is checked) before they do.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	exe := browsertest.Chromium(t, "the console's browser tests")
	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 800),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		chromedp.Cancel(ctx)
		cancel()
		acancel()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	b := &browser{t: t, ctx: ctx}
	// No page may log an error or throw: whatever a test did not take and check itself
	// with consoleErrors fails it.
	t.Cleanup(func() {
		for _, e := range b.consoleErrors() {
			t.Errorf("browser console: %s", e)
		}
	})
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, m.String()+" "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression (awaited if a promise) into out.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("(async () => JSON.stringify(await ("+expr+")) ?? \"null\")()", chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			b.t.Fatalf("evaluating %s: %v (%s)", expr, err, s)
		}
	}
}

// wait polls a JavaScript condition until it holds or timeout passes.
func (b *browser) wait(what, cond string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, time.Until(deadline)+5*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		// A navigation while polling destroys the page's JavaScript context under the poll:
		// poll again in the new page.
		if (strings.Contains(err.Error(), "Cannot find context") || strings.Contains(err.Error(), "context was destroyed")) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		b.t.Fatalf("waiting for %s (%s): %v", what, cond, err)
	}
}

func (b *browser) text() string {
	var s string
	b.eval("document.body.innerText", &s)
	return s
}

// screenshot saves the viewport as NAME.png in the test's artifact directory, or in
// $LLMFS_ARTIFACTS/TEST when that is set.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := b.t.ArtifactDir()
	if d := os.Getenv("LLMFS_ARTIFACTS"); d != "" {
		// Kept after the test, to be looked at.
		dir = filepath.Join(d, b.t.Name())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", p)
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.errors
	b.errors = nil
	return e
}

// changes asks the console's API for the journal, newest first.
func changes(t *testing.T, consoleURL string) []struct {
	ID    int64  `json:"id"`
	Actor string `json:"actor"`
	Op    string `json:"op"`
	Path  string `json:"path"`
} {
	t.Helper()
	base, token, _ := strings.Cut(consoleURL, "/#token=")
	req, _ := http.NewRequest("GET", base+"/api/history/changes", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cs []struct {
		ID    int64  `json:"id"`
		Actor string `json:"actor"`
		Op    string `json:"op"`
		Path  string `json:"path"`
	}
	if err := json.NewDecoder(res.Body).Decode(&cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConsole drives the console of a real `llmfs serve` in headless Chromium: the printed
// URL opens it logged in, the tree lists the served files, an agent's write appears in the
// feed with its diff, undo from the page restores the file on disk, a person's edit is
// journaled as "web", a checkpoint restores, and a wrong token gets the token screen.
func TestConsole(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"README.md": "# hello\n", "main.go": "package main\n\nfunc main() {}\n", "notes/todo.txt": "one\ntwo\n"}
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root)
	b := startBrowser(t)

	// The printed URL opens the console with the tree of the served files.
	b.run("opening "+url, chromedp.Navigate(url))
	b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
	for _, name := range []string{"README.md", "main.go", "notes/"} {
		if !strings.Contains(b.text(), name) {
			t.Errorf("the page does not show %s:\n%s", name, b.text())
		}
	}
	var hash string
	b.eval("location.hash", &hash)
	if hash != "" {
		t.Errorf("the token stays in the address bar: %q", hash)
	}
	b.screenshot("tree")

	// A file opens with line numbers; a directory opens lazily.
	b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "main.go").click()`, nil)
	b.wait("main.go shown", `document.getElementById("L3")?.textContent.includes("func main")`, 10*time.Second)
	var keyword string
	b.eval(`document.querySelector("#L1 .hljs-keyword")?.textContent ?? ""`, &keyword)
	if keyword != "package" {
		t.Errorf("main.go's first line is not highlighted: keyword %q", keyword)
	}
	b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "notes/").click()`, nil)
	b.wait("notes/ listed", `[...document.querySelectorAll("#tree button")].some(b => b.textContent === "todo.txt")`, 10*time.Second)
	b.screenshot("file")

	// An agent's write (another process, the CLI's tool call) appears in the feed.
	out, err := exec.Command(llmfsBinary(t), "call", "file_write", "--root", root,
		`{"path":"README.md","content":"# hello\nan agent was here\n"}`).CombinedOutput()
	if err != nil {
		t.Fatalf("llmfs call write: %v\n%s", err, out)
	}
	wrote := time.Now()
	b.wait("the agent's write in the feed", `[...document.querySelectorAll("#feed li")].some(li => li.textContent.includes("README.md"))`, time.Second)
	t.Logf("the write appeared in the feed %v after llmfs call returned", time.Since(wrote))
	var feed string
	b.eval(`document.getElementById("feed").firstChild.textContent`, &feed)
	if !strings.Contains(feed, "write") || !strings.Contains(feed, "README.md") {
		t.Errorf("feed entry %q lacks the op or path", feed)
	}

	// Its diff, then undo from the page.
	b.eval(`document.querySelector("#feed li .link").click()`, nil)
	b.wait("the diff", `document.getElementById("diff")?.textContent.includes("+an agent was here")`, 10*time.Second)
	b.screenshot("diff")
	b.eval(`document.getElementById("sidebyside").click()`, nil)
	b.wait("the side-by-side diff", `[...document.querySelectorAll("table.split td.add")].some(td => td.textContent === "an agent was here")`, 10*time.Second)
	b.screenshot("diff-side-by-side")
	b.eval(`document.querySelector("#viewactions .undo").click()`, nil)
	deadline := time.Now().Add(10 * time.Second)
	for readFile(t, filepath.Join(root, "README.md")) != "# hello\n" {
		if time.Now().After(deadline) {
			t.Fatalf("undo from the page did not restore README.md: %q", readFile(t, filepath.Join(root, "README.md")))
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A person's edit is journaled as "web".
	b.eval(`[...document.querySelectorAll("#tree button")].find(b => b.textContent === "main.go").click()`, nil)
	b.wait("main.go shown", `document.getElementById("L1") && document.getElementById("viewtitle").textContent === "main.go"`, 10*time.Second)
	b.eval(`[...document.querySelectorAll("#viewactions button")].find(b => b.textContent === "Edit").click()`, nil)
	b.wait("the editor", `!!document.getElementById("editor")`, 10*time.Second)
	b.eval(`document.getElementById("editor").value = "package main\n\n// edited by a person\nfunc main() {}\n"`, nil)
	b.screenshot("edit")
	b.eval(`document.getElementById("save").click()`, nil)
	b.wait("the saved file", `document.getElementById("L3")?.textContent.includes("edited by a person")`, 10*time.Second)
	if got := readFile(t, filepath.Join(root, "main.go")); !strings.Contains(got, "// edited by a person") {
		t.Fatalf("main.go after the edit: %q", got)
	}
	cs := changes(t, url)
	if len(cs) == 0 || cs[0].Actor != "web" || cs[0].Path != "main.go" {
		t.Errorf("newest change %+v, want web's edit of main.go", cs)
	}

	// Make a checkpoint, change a file, restore it.
	b.eval(`(document.getElementById("cpname").value = "before", document.querySelector("#cpform button").click())`, nil)
	b.wait("the checkpoint", `document.getElementById("checkpoints").textContent.includes("before")`, 10*time.Second)
	out, err = exec.Command(llmfsBinary(t), "call", "file_write", "--root", root,
		`{"path":"notes/todo.txt","content":"one\ntwo\nthree\n"}`).CombinedOutput()
	if err != nil {
		t.Fatalf("llmfs call write: %v\n%s", err, out)
	}
	b.wait("the second write in the feed", `document.querySelectorAll("#feed li")[0].textContent.includes("todo.txt")`, 5*time.Second)
	b.eval(`(window.confirm = () => true, document.querySelector("#checkpoints .restore").click())`, nil)
	deadline = time.Now().Add(10 * time.Second)
	for readFile(t, filepath.Join(root, "notes/todo.txt")) == "one\ntwo\nthree\n" {
		if time.Now().After(deadline) {
			t.Fatalf("restore left notes/todo.txt at %q", readFile(t, filepath.Join(root, "notes/todo.txt")))
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.wait("the restore in the feed", `document.querySelectorAll("#feed li")[0].textContent.includes("todo.txt")`, 5*time.Second)
	b.screenshot("checkpoints")

	// Search: a grep hit opens the file at its line.
	b.eval(`(document.getElementById("q").value = "edited", document.getElementById("search").requestSubmit())`, nil)
	b.wait("the grep result", `document.querySelector("#results .filehits h3 .path")?.textContent === "main.go" && document.querySelector("#results .hitrow .link")?.textContent === "3"`, 10*time.Second)
	b.eval(`document.querySelector("#results .hitrow .link").click()`, nil)
	b.wait("the hit line", `document.querySelector("tr.hit")?.id === "L3"`, 10*time.Second)
	b.screenshot("search")

	// Readable at 700 px wide: the columns stack.
	b.run("a narrow window", chromedp.EmulateViewport(700, 900))
	var tree, view float64
	b.eval(`document.getElementById("tree").getBoundingClientRect().width`, &tree)
	b.eval(`document.getElementById("view").getBoundingClientRect().width`, &view)
	if tree < 600 || view < 600 {
		t.Errorf("at 700 px the tree is %v px and the viewer %v px wide, want them stacked full width", tree, view)
	}
	b.screenshot("narrow")
	b.run("a wide window", chromedp.EmulateViewport(1280, 800))

	for _, e := range b.consoleErrors() {
		t.Errorf("browser console: %s", e)
	}

	// A wrong token gets the token screen, and the API answers 401.
	base, _, _ := strings.Cut(url, "#")
	b.run("opening with a wrong token", chromedp.Navigate("about:blank"), chromedp.Navigate(base+"#token=wrong"))
	b.wait("the token screen", `getComputedStyle(document.getElementById("login")).display !== "none" && getComputedStyle(document.getElementById("app")).display === "none"`, 10*time.Second)
	if !strings.Contains(b.text(), "Paste the token") {
		t.Errorf("the token screen does not ask for the token:\n%s", b.text())
	}
	b.screenshot("token")
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "401") {
			t.Errorf("browser console: %s", e)
		}
	}
	res, err := http.Get(base + "api/list")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/list without a token: %d, want 401", res.StatusCode)
	}
}
