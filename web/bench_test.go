//go:build !js && !wasip1

package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/llmfs/llmfs/web"
)

// TestBrowserFigures measures llmfs in headless Chromium for BENCHMARKS.md. It runs only
// with LLMFS_BENCH=1:
//
//	LLMFS_BENCH=1 go test -count=1 -run TestBrowserFigures -v ./web
//
// Every timing is taken inside the page with performance.now(), so the DevTools protocol
// is not part of it.
func TestBrowserFigures(t *testing.T) {
	if os.Getenv("LLMFS_BENCH") == "" {
		t.Skip("set LLMFS_BENCH=1 to measure the browser figures")
	}
	exe := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	a, err := web.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	zw.Write(a.Wasm)
	zw.Close()
	var report strings.Builder
	say := func(format string, args ...any) {
		fmt.Fprintf(&report, format+"\n", args...)
	}
	say("llmfs.wasm: %.2f MiB raw, %.2f MiB gzip -9 (as served), %.2f MiB gzip -6", mib(len(a.Wasm)), mib(len(a.WasmGzip)), mib(gz.Len()))

	srv := httptest.NewServer(web.NewHandler(a))
	defer srv.Close()

	for _, mode := range []struct{ name, opts string }{{"worker", `{db: "bench", worker: true}`}, {"page", `{db: "bench", worker: false}`}} {
		// A fresh browser and profile per mode, so that the first load is cold: no
		// compiled code cache, no database. (The page, the in-browser console, has
		// fetched llmfs.wasm for its own worker by then, so it comes from the HTTP cache.)
		b := startBrowser(t, exe, t.TempDir())
		if mode.name == "worker" {
			say("browser: %s", get(b, "the browser version", chromedp.Evaluate[string]("navigator.userAgent")))
		}
		url := srv.URL + "/"
		var ready []float64
		for i := range 6 {
			if i == 0 {
				b.run("loading", chromedp.Navigate(url))
			} else {
				b.run("reloading", chromedp.Reload())
			}
			b.waitReady(mode.opts)
			var ms float64
			b.eval("window.llmfsPage.readyMs", &ms)
			ready = append(ready, ms)
		}
		say("%s: time to ready (llmfs.open: fetch, compile and start the .wasm, open the database): first load %.0f ms, reloads median %.0f ms",
			mode.name, ready[0], median(ready[1:]))

		var perCall struct{ Invalid, Ls float64 }
		b.eval(`(async () => {
			const fs = window.llmfsPage.fs;
			await fs.call("write", {path: "/small/x.txt", content: "x\n"});
			const n = 1000;
			let t0 = performance.now();
			for (let i = 0; i < n; i++) await fs.run("read", {});
			const invalid = (performance.now() - t0) / n;
			t0 = performance.now();
			for (let i = 0; i < n; i++) await fs.call("ls", {path: "/small"});
			return {invalid, ls: (performance.now() - t0) / n};
		})()`, &perCall)
		say("%s: per-call overhead: %.3f ms (a call refused by argument checking, no storage); %.3f ms (ls of a 1-entry directory, one IndexedDB transaction)",
			mode.name, perCall.Invalid, perCall.Ls)

		var writes struct{ Seq, Par, Big, BigRead float64 }
		b.eval(`(async () => {
			const fs = window.llmfsPage.fs;
			const content = "0123456789".repeat(10) + "\n";
			let t0 = performance.now();
			for (let i = 0; i < 1000; i++) await fs.call("write", {path: "/seq/f" + i + ".txt", content});
			const seq = performance.now() - t0;
			t0 = performance.now();
			await Promise.all(Array.from({length: 1000}, (_, i) => fs.call("write", {path: "/par/f" + i + ".txt", content})));
			const par = performance.now() - t0;
			const big = "abcdefghijklmnopqrstuvwxyz0123456789012345678901234567890123456789012345678901234567890123456789012\n".repeat(100 * 1024);
			t0 = performance.now();
			await fs.call("write", {path: "/big.txt", content: big});
			const bigMs = performance.now() - t0;
			t0 = performance.now();
			await fs.call("read", {path: "/big.txt", offset: 100000, limit: 10});
			return {seq, par, big: bigMs, bigRead: performance.now() - t0};
		})()`, &writes)
		say("%s: 1,000 small writes (101 B): %.0f ms one after another (%.2f ms each), %.0f ms all at once", mode.name, writes.Seq, writes.Seq/1000, writes.Par)
		say("%s: one 10 MB write (10,240,000 B, 102,400 lines): %.0f ms; reading 10 lines at line 100,000 of it: %.0f ms", mode.name, writes.Big, writes.BigRead)

		var defs []struct {
			Name string `json:"name"`
		}
		b.eval("window.llmfsPage.fs.tools()", &defs)
		if slices.ContainsFunc(defs, func(d struct {
			Name string `json:"name"`
		}) bool {
			return d.Name == "grep"
		}) {
			var grepMs float64
			b.eval(`(async () => {
				const t0 = performance.now();
				await window.llmfsPage.fs.call("grep", {pattern: "5678", path: "/seq", output_mode: "count"});
				return performance.now() - t0;
			})()`, &grepMs)
			say("%s: grep over 1,000 files: %.0f ms", mode.name, grepMs)
		} else {
			say("%s: grep over 1,000 files: not measured, this build has no grep tool (package search)", mode.name)
		}
		b.noConsoleErrors()
		b.cancel()
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("LLMFS_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(report.String()), 0o644)
	}
}

func mib(n int) float64 { return float64(n) / (1 << 20) }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
