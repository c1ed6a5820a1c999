//go:build !js && !wasip1

package console_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/internal/browsertest"
)

// firstItemGoal is issue 40.5's goal for the first tree item of a flat directory of 10,000
// files, from navigation start, on a quiet machine.
const firstItemGoal = 300 * time.Millisecond

// TestTreeFirstRender: issue 40.5. The console of a flat directory of 10,000 files shows
// its first tree item without fetching the whole listing first: one small page of it comes
// before the first item, and the frame that shows the item is drawn under firstItemGoal
// after navigation start (the median of five loads, enforced when the machine is not loaded:
// the figure and the load average are logged either way).
func TestTreeFirstRender(t *testing.T) {
	browsertest.Chromium(t, "the console's browser tests") // skips before writing 10,000 files
	root := t.TempDir()
	const n = 10000
	for i := range n {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%05d.txt", i)), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := serve(t, root)
	b := startBrowser(t)
	var times []float64
	for range 5 {
		b.run("opening "+url, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		b.wait("the first tree item", `window.llmfsConsole?.firstTreeFrame !== undefined || !!window.llmfsConsole?.error`, 30*time.Second)
		var m struct {
			First     float64
			Frame     float64
			ListBytes int
			Lists     int
		}
		b.eval(`(() => {
			const first = window.llmfsConsole.firstTreeItem;
			const lists = performance.getEntriesByType("resource").filter((e) => e.name.includes("/api/list") && e.responseEnd <= first);
			return {First: first, Frame: window.llmfsConsole.firstTreeFrame, Lists: lists.length, ListBytes: lists.reduce((n, e) => n + e.encodedBodySize, 0)};
		})()`, &m)
		if m.Lists != 1 || m.ListBytes > 32<<10 {
			t.Errorf("before the first tree item the page fetched %d listing(s), %d bytes; want one page, at most 32 KB", m.Lists, m.ListBytes)
		}
		var stages string
		b.eval(`performance.getEntriesByType("resource").filter((e) => e.responseEnd <= window.llmfsConsole.firstTreeItem)
			.map((e) => e.name.replace(/^.*\//, "") + " " + e.startTime.toFixed(0) + "-" + e.responseEnd.toFixed(0)).join(", ") + "; html " + performance.getEntriesByType("navigation")[0].responseEnd.toFixed(0) + ", dom " + performance.getEntriesByType("navigation")[0].domInteractive.toFixed(0) + ", console.js ran at " + window.llmfsConsole.started.toFixed(0)`, &stages)
		t.Logf("first item in the page at %.0f ms, its frame at %.0f ms, after %d bytes of listing; before it (start-end ms): %s", m.First, m.Frame, m.ListBytes, stages)
		times = append(times, m.Frame)
		// Open with a token once: the page keeps it; the next loads have it too.
		url, _, _ = strings.Cut(url, "#")
	}
	b.wait("every row can come", `document.querySelector("#tree .more button")?.textContent.includes("9900 more")`, 30*time.Second)
	slices.Sort(times)
	median := time.Duration(times[len(times)/2] * float64(time.Millisecond))
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("first tree item of %d files: median %v of %v ms (load %s, %d CPUs)", n, median, times, strings.Fields(string(load) + " ?")[0], runtime.NumCPU())
	if median > firstItemGoal {
		if quiet(t) {
			t.Errorf("first tree item after %v, goal %v", median, firstItemGoal)
		} else {
			t.Logf("over the goal of %v, on a loaded machine: not a failure", firstItemGoal)
		}
	}
}

// quiet reports whether the machine's load average is below its CPU count.
func quiet(t *testing.T) bool {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return true
	}
	var load float64
	fmt.Sscan(string(b), &load)
	return load < float64(runtime.NumCPU())
}
