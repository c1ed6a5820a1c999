//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// TestDenyUnicodeNormalizationAndFolding: Issue 12.6: --deny 'café/**' did not cover the
// same name spelled in NFD (as macOS writes it), so read and grep leaked it; and rules
// were folded with strings.ToLower, which misses "ſ" -> "s". The rules now match on NFC
// plus Unicode case folding, in every operation and in the search walk alike.
func TestDenyUnicodeNormalizationAndFolding(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const nfd = "cafe\u0301" // "café", decomposed
	polTree(t, dir, map[string]string{
		nfd + "/secret.txt":       "token=1\n",
		"docs/ſecret.md":          "token=2\n", // long s: folds to "secret.md"
		"docs/KELVIN.txt":         "token=3\n", // Kelvin sign: folds to "kelvin.txt"
		"docs/ok.txt":             "token=4\n",
		"CAFÉ/other.txt":          "token=5\n", // NFC, upper case
		"x/Straße/passwords.txt":  "token=6\n",
		"x/STRASSE/passwords.txt": "token=7\n",
	})
	w, err := host.Open(&llmfs.Options{Root: dir, Deny: []string{"café/**", "**/secret.md", "**/kelvin.txt", "**/strasse/**"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{nfd + "/secret.txt", "café/secret.txt", "CAFÉ/other.txt", "docs/ſecret.md", "docs/KELVIN.txt", "x/Straße/passwords.txt", "x/STRASSE/passwords.txt"} {
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		polCode(t, "Read "+p, err, llmfs.CodePermissionDenied)
		if !w.Paths().Denied(p) {
			t.Errorf("Denied(%q) = false", p)
		}
	}
	if _, err := w.Read(ctx, "docs/ok.txt", llmfs.ReadOptions{}); err != nil {
		t.Errorf("Read docs/ok.txt: %v", err)
	}
	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "token", Mode: llmfs.GrepFiles})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Files(), ","); got != "docs/ok.txt" {
		t.Errorf("grep found %q, want only docs/ok.txt", got)
	}
	found, err := w.Find(ctx, "**", llmfs.FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Files) != 1 || found.Files[0].Path != "docs/ok.txt" {
		t.Errorf("find found %v, want only docs/ok.txt", found.Files)
	}
	es, err := w.List(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.EqualFold(e.Name, "café") || e.Name == nfd {
			t.Errorf("List(.) shows the denied directory %q", e.Name)
		}
	}
}

// TestDenyNestedRepositoriesAndKeys: Issue 12.6: vendor/lib/.git/config (a vendored
// repository's, holding a token) was readable, as were .env.local, *.key and other key
// files: the default rules now reach every depth.
func TestDenyNestedRepositoriesAndKeys(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	secrets := []string{
		"vendor/lib/.git/config", "a/b/.git/HEAD", ".env.local", "app/.env.production", "tls/server.key",
		"home/.ssh/id_dsa", "home/.ssh/id_ecdsa.pub", "home/.ssh/id_ed25519", "home/.netrc", "deep/x/y/cert.pem",
	}
	files := map[string]string{"src/main.go": "package main // token\n", "src/env.go": "package main // token\n"}
	for _, p := range secrets {
		files[p] = "token=secret\n"
	}
	polTree(t, dir, files)
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range secrets {
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		polCode(t, "Read "+p, err, llmfs.CodePermissionDenied)
	}
	res, err := w.Grep(ctx, llmfs.GrepOptions{Pattern: "token", Mode: llmfs.GrepFiles, Hidden: true, NoIgnore: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Files(), ","); got != "src/env.go,src/main.go" {
		t.Errorf("grep found %q, want only the sources", got)
	}
	es, err := w.List(ctx, "vendor/lib")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 0 {
		t.Errorf("List(vendor/lib) = %v, want the .git directory hidden", es)
	}
}
