// Package pagepolicy sets the response headers that keep llmfs's web pages (the console of
// llmfs serve, the in-browser demo) to their own origin: a Content-Security-Policy that
// runs only the pages' own script files, and no framing by any other page.
//
// The pages are built for it: no inline script, style or event handler, so the policy
// needs no 'unsafe-inline', hash or nonce. A page added later must keep it so.
package pagepolicy

import "net/http"

// The policy: everything from the page's own origin, nothing inline, and no other page
// may frame it (frame-ancestors; X-Frame-Options for browsers without CSP 2).
// img-src allows data: for the page's empty favicon (href="data:,").
const (
	policy     = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	wasmPolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

// Set sets the headers on h, for a page or any of its assets (a worker script takes its
// policy from its own response). wasm also lets the page compile WebAssembly
// ('wasm-unsafe-eval'), which the in-browser demo needs to run llmfs.wasm.
func Set(h http.Header, wasm bool) {
	if wasm {
		h.Set("Content-Security-Policy", wasmPolicy)
	} else {
		h.Set("Content-Security-Policy", policy)
	}
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
