//go:build !js && !wasip1

package console_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestReviewView: issue 35.5, the review view a person wants, under --review, at 1366 and
// 390 px (screenshots kept with -artifacts or LLMFS_ARTIFACTS): line numbers in gutters of
// the unified and side-by-side diffs, the changed words marked within a changed line, a long
// line wrapped rather than clipped (nothing scrolls sideways), the files with pending changes
// and the directories holding them marked in the tree, the open file marked, and a live feed
// of what the agent does though no journal is kept.
func TestReviewView(t *testing.T) {
	t.Setenv("LLMFS_CACHE_DIR", t.TempDir()) // the pending layer, this test's own
	root := t.TempDir()
	app := "package app\n\nfunc run() {\n\tprintln(\"start\")\n\tx := compute(1)\n\tprintln(x)\n}\n"
	long := strings.Repeat("a long line of words ", 150) + "end\n"
	for name, content := range map[string]string{"a.txt": twelve, "keep.txt": "keep\n", "src/app.go": app, "long.txt": long} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root, "--review")
	b := startBrowser(t)
	cs := agent(t, url)
	callTool(t, cs, "file_write", map[string]any{"path": "a.txt", "content": strings.Replace(twelve, "one", "ONE", 1)})
	callTool(t, cs, "file_write", map[string]any{"path": "src/app.go", "content": strings.Replace(app, "compute(1)", "compute(2)", 1)})
	callTool(t, cs, "file_write", map[string]any{"path": "long.txt", "content": strings.Replace(long, "end", "END", 1)})

	for i, width := range []int64{1366, 390} {
		shot := func(name string) { b.screenshot(name + "-" + itoa(width)) }
		b.run("the window", chromedp.EmulateViewport(width, 900))
		b.run("opening "+url, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		b.wait("the console", "window.llmfsConsole && (window.llmfsConsole.ready || window.llmfsConsole.error)", 30*time.Second)
		b.wait("the pending changes", `document.querySelectorAll("#review li").length === `+itoa(int64(3+i)), 10*time.Second)

		// The tree marks the pending files and the directory that holds one.
		b.eval(`document.querySelector('#tree button[data-path="src"]').click()`, nil)
		b.wait("src/ listed", `!!document.querySelector('#tree button[data-path="src/app.go"]')`, 10*time.Second)
		var marks struct{ Pending, Dirs []string }
		b.eval(`({Pending: [...document.querySelectorAll("#tree button.pending")].map(b => b.dataset.path).sort(),
			Dirs: [...document.querySelectorAll("#tree button.haspending")].map(b => b.dataset.path)})`, &marks)
		want := []string{"a.txt", "long.txt", "src/app.go"}
		if i == 1 {
			want = []string{"a.txt", "later0.txt", "long.txt", "src/app.go"}
		}
		if !equal(marks.Pending, want) || !equal(marks.Dirs, []string{"src"}) {
			t.Errorf("tree marks at %d px: %+v; want %q pending and src/ holding one", width, marks, want)
		}

		// src/app.go's diff: gutters of line numbers, the changed word marked.
		b.eval(`[...document.querySelectorAll("#review .pending")].find(b => b.textContent === "src/app.go").click()`, nil)
		b.wait("app.go's diff", `document.getElementById("viewtitle").textContent.includes("app.go") && !!document.querySelector("#hunk-1 table.unified tr.del")`, 10*time.Second)
		var uni struct {
			Del, Add, Ctx []string
			DelWords      []string
			AddWords      []string
			Selected      []string
		}
		b.eval(`(() => {
			const row = (sel) => [...document.querySelector("#hunk-1 " + sel).querySelectorAll("td")].map(td => td.textContent);
			return {Del: row("tr.del"), Add: row("tr.add"), Ctx: row("tr.ctx"),
				DelWords: [...document.querySelectorAll("#hunk-1 tr.del .wd")].map(e => e.textContent),
				AddWords: [...document.querySelectorAll("#hunk-1 tr.add .wd")].map(e => e.textContent),
				Selected: [...document.querySelectorAll('#tree button[aria-selected="true"], #review .pending[aria-current="true"]')].map(b => b.dataset.path)};
		})()`, &uni)
		if !equal(uni.Del, []string{"5", "", "-", "\tx := compute(1)"}) || !equal(uni.Add, []string{"", "5", "+", "\tx := compute(2)"}) || !equal(uni.Ctx[:2], []string{"2", "2"}) {
			t.Errorf("unified rows at %d px: del %q, add %q, context %q; want old and new line numbers in gutters", width, uni.Del, uni.Add, uni.Ctx)
		}
		if !equal(uni.DelWords, []string{"1"}) || !equal(uni.AddWords, []string{"2"}) {
			t.Errorf("changed words at %d px: %q -> %q, want 1 -> 2", width, uni.DelWords, uni.AddWords)
		}
		if !equal(uni.Selected, []string{"src/app.go", "src/app.go"}) {
			t.Errorf("the tree and the review list mark %q open, want src/app.go in each", uni.Selected)
		}
		shot("review-unified")
		b.eval(`document.getElementById("sidebyside").click()`, nil)
		b.wait("side by side", `!!document.querySelector("#hunk-1 table.split tr.chg")`, 10*time.Second)
		var split []string
		b.eval(`[...document.querySelector("#hunk-1 table.split tr.chg").querySelectorAll("td")].map(td => td.textContent)`, &split)
		var splitWords []string
		b.eval(`[...document.querySelectorAll("#hunk-1 table.split .wd")].map(e => e.textContent)`, &splitWords)
		if !equal(split, []string{"5", "\tx := compute(1)", "5", "\tx := compute(2)"}) || !equal(splitWords, []string{"1", "2"}) {
			t.Errorf("side by side at %d px: %q, words %q", width, split, splitWords)
		}
		shot("review-side-by-side")

		// A long line wraps: the diff is no wider than the view, the line is several rows tall.
		b.eval(`[...document.querySelectorAll("#review .pending")].find(b => b.textContent === "long.txt").click()`, nil)
		b.wait("long.txt's diff", `document.getElementById("viewtitle").textContent.includes("long.txt") && !!document.querySelector("#hunk-1 table.split tr.chg")`, 10*time.Second)
		var wrap struct{ Table, View, Row, Line, Scroll, Client float64 }
		b.eval(`(() => {
			const td = document.querySelector("#hunk-1 table.split td.add");
			return {Table: document.querySelector("#hunk-1 table").getBoundingClientRect().width,
				View: document.getElementById("viewbody").clientWidth, Row: td.getBoundingClientRect().height,
				Line: parseFloat(getComputedStyle(td).lineHeight),
				Scroll: document.documentElement.scrollWidth, Client: document.documentElement.clientWidth};
		})()`, &wrap)
		if wrap.Table > wrap.View+1 || wrap.Row < 3*wrap.Line || wrap.Scroll > wrap.Client {
			t.Errorf("long line at %d px: table %v px in a view of %v, row %v px tall (line %v), page %v of %v px; want it wrapped", width, wrap.Table, wrap.View, wrap.Row, wrap.Line, wrap.Scroll, wrap.Client)
		}
		shot("review-long-line")
		b.eval(`document.querySelector("#viewbody button")?.textContent === "Unified" && document.querySelector("#viewbody button").click()`, nil)
		b.wait("unified", `!!document.querySelector("#hunk-1 table.unified")`, 10*time.Second)
		shot("review-long-line-unified")

		// The open file is marked in the tree, and only it.
		b.eval(`document.querySelector('#tree button[data-path="keep.txt"]').click()`, nil)
		b.wait("keep.txt open", `document.getElementById("viewtitle").textContent === "keep.txt"`, 10*time.Second)
		var selected []string
		b.eval(`[...document.querySelectorAll('#tree button[aria-selected="true"]')].map(b => b.dataset.path)`, &selected)
		if !equal(selected, []string{"keep.txt"}) {
			t.Errorf("open file marks: %q, want keep.txt", selected)
		}
		shot("tree-marks")

		// The live feed: what was pending at load, then what the agent does now.
		later := "later" + itoa(int64(i)) + ".txt"
		callTool(t, cs, "file_write", map[string]any{"path": later, "content": "new\n"})
		b.wait("the agent's write in the live feed", `document.getElementById("live").firstElementChild?.textContent.includes("`+later+`")`, 10*time.Second)
		var live string
		b.eval(`document.getElementById("live").firstElementChild.textContent`, &live)
		if !contains(live, "agent", "created", later, "+1 −0") {
			t.Errorf("live feed entry %q", live)
		}
		// The file the agent made shows in the tree, marked pending.
		b.wait("the new file in the tree", `!!document.querySelector('#tree button.pending[data-path="`+later+`"]')`, 10*time.Second)
		b.eval(`document.getElementById("livebox").scrollIntoView()`, nil)
		shot("live")
	}
	// Applying from the page shows in the live feed as the person's.
	b.eval(`[...document.querySelectorAll("#review .pending")].find(b => b.textContent === "a.txt").click()`, nil)
	b.wait("a.txt's diff", `document.getElementById("viewtitle").textContent.includes("a.txt")`, 10*time.Second)
	b.eval(`document.querySelector("#viewactions .applyfile").click()`, nil)
	b.wait("the apply in the live feed", `document.getElementById("live").firstElementChild?.textContent.includes("applied a.txt")`, 10*time.Second)
	b.wait("a.txt unmarked", `!document.querySelector('#tree button[data-path="a.txt"]')?.classList.contains("pending")`, 10*time.Second)
}
