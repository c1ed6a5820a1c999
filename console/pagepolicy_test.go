package console_test

import (
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/console"
)

// TestConsolePagePolicy: every answer of the console, the page, its assets, the API and a
// refusal, carries a Content-Security-Policy that runs only the console's own script
// files and lets no page frame it, and X-Frame-Options: DENY (issue 31, item 9).
func TestConsolePagePolicy(t *testing.T) {
	_, url := newConsole(t)
	for _, c := range []struct{ path, origin string }{
		{"/", ""}, {"/index.html", ""}, {"/console.js", ""}, {"/vendor.js", ""}, {"/console.css", ""},
		{"/nothing.js", ""}, {"/api/info", ""}, {"/api/list", "https://evil.example"},
	} {
		req, _ := http.NewRequest("GET", url+c.path, nil)
		req.Header.Set("Authorization", "Bearer tok")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self';", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s (%d): Content-Security-Policy %q lacks %q", c.path, res.StatusCode, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval'") {
			t.Errorf("GET %s: Content-Security-Policy %q allows inline or eval'd code", c.path, csp)
		}
		if xfo := res.Header.Get("X-Frame-Options"); xfo != "DENY" {
			t.Errorf("GET %s: X-Frame-Options %q, want DENY", c.path, xfo)
		}
	}
}

// TestConsolePageHasNoInlineCode: the policy forbids inline script and style, so the page
// must hold none: no <script> without src, no <style>, no style= or on...= attribute.
func TestConsolePageHasNoInlineCode(t *testing.T) {
	b, err := fs.ReadFile(console.UI(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, tag := range regexp.MustCompile(`(?i)<script[^>]*>`).FindAllString(page, -1) {
		if !strings.Contains(tag, " src=") {
			t.Errorf("index.html has an inline script: %s", tag)
		}
	}
	for _, re := range []string{`<style`, `\sstyle\s*=`, `\son[a-z]+\s*=`, `javascript:`} {
		if m := regexp.MustCompile(`(?i)` + re).FindString(page); m != "" {
			t.Errorf("index.html holds inline code the policy forbids: %q", m)
		}
	}
}
