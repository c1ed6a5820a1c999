//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
)

// polTree creates files (name -> content) and symbolic links (name -> "@target") under dir.
func polTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "@"); ok {
			target = strings.ReplaceAll(target, "$ROOT", dir)
			if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func polRead(t *testing.T, p string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// TestDenyOnHostDirectory checks the deny rules on a real directory, against symbolic links
// and case tricks that lead into denied paths.
func TestDenyOnHostDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	polTree(t, dir, map[string]string{
		".git/config":        "[core]\n",
		".Git/config":        "[core] case twin\n", // a distinct directory on Linux: denied all the same
		".env":               "TOKEN=1\n",
		"app/.ENV":           "TOKEN=2\n",
		"app/main.go":        "package main\n",
		"keys/server.pem":    "key\n",
		"README.md":          "hi\n",
		"gitdir":             "@.git",               // relative link to a denied directory
		"abs-gitdir":         "@$ROOT/.git",         // absolute link, inside the root
		"cfg":                "@.git/config",        // link to a denied file
		"app/env-link":       "@../.env",            // link to a denied file, from below
		"app/innocent.txt":   "@../keys/server.pem", // a harmless name for a key
		"links/up":           "@..",                 // a loop back to the root: allowed itself
		"docs/readme":        "@../README.md",       // a link to an allowed file
		"app/case/.eNv":      "TOKEN=3\n",
		"app/upper/ID_RSA":   "key\n",
		"app/upper/ok.txt":   "ok\n",
		"dotenvdir/.env/any": "nested\n",
		"hook":               "@.git/hooks/post-commit", // a dangling link into a denied directory
	})
	w, err := host.Open(&llmfs.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}

	list := func(p string) string {
		t.Helper()
		es, err := w.List(ctx, p)
		if err != nil {
			t.Fatalf("List(%q): %v", p, err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return strings.Join(out, " ")
	}
	if got, want := list("."), "README.md app docs dotenvdir keys links"; got != want {
		t.Errorf("List(.) = %q, want %q", got, want)
	}
	if got, want := list("app"), "case main.go upper"; got != want {
		t.Errorf("List(app) = %q, want %q", got, want)
	}
	if got, want := list("app/upper"), "ok.txt"; got != want {
		t.Errorf("List(app/upper) = %q, want %q", got, want)
	}
	if got := list("app/case"); got != "" {
		t.Errorf("List(app/case) = %q, want nothing", got)
	}
	if got, want := list("links/up/app/upper"), "ok.txt"; got != want {
		t.Errorf("List(links/up/app/upper) = %q, want %q", got, want)
	}

	for _, p := range []string{".git/config", ".Git/config", ".GIT/config", ".env", "app/.ENV", "app/case/.eNv", "app/upper/ID_RSA",
		"gitdir/config", "abs-gitdir/config", "cfg", "app/env-link", "app/innocent.txt", "links/up/.env", "links/up/gitdir/config",
		filepath.Join(dir, ".env"), "dotenvdir/.env/any"} {
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		polCode(t, "Read "+p, err, llmfs.CodePermissionDenied)
	}
	if _, err := w.Read(ctx, "docs/readme", llmfs.ReadOptions{}); err != nil {
		t.Errorf("Read docs/readme (link to an allowed file): %v", err)
	}
	_, err = w.List(ctx, "gitdir")
	polCode(t, "List gitdir", err, llmfs.CodePermissionDenied)

	// Changes through links into denied paths are refused and change nothing.
	_, err = w.Write(ctx, "cfg", "pwned", llmfs.WriteOptions{})
	polCode(t, "Write cfg", err, llmfs.CodePermissionDenied)
	_, err = w.Write(ctx, "gitdir/hooks/post-checkout", "pwned", llmfs.WriteOptions{})
	polCode(t, "Write gitdir/hooks/post-checkout", err, llmfs.CodePermissionDenied)
	_, err = w.Write(ctx, "abs-gitdir/new", "pwned", llmfs.WriteOptions{})
	polCode(t, "Write abs-gitdir/new", err, llmfs.CodePermissionDenied)
	_, err = w.Write(ctx, "hook", "#!/bin/sh\nevil\n", llmfs.WriteOptions{})
	polCode(t, "Write hook (dangling link)", err, llmfs.CodePermissionDenied)
	_, err = w.Edit(ctx, "app/env-link", "TOKEN", "X", false)
	polCode(t, "Edit app/env-link", err, llmfs.CodePermissionDenied)
	_, err = w.Copy(ctx, "app/innocent.txt", "stolen.txt")
	polCode(t, "Copy app/innocent.txt", err, llmfs.CodePermissionDenied)
	_, err = w.Copy(ctx, "cfg", "stolen.txt")
	polCode(t, "Copy cfg", err, llmfs.CodePermissionDenied)
	_, err = w.Move(ctx, "README.md", "gitdir/README.md")
	polCode(t, "Move into gitdir", err, llmfs.CodePermissionDenied)
	_, err = w.Delete(ctx, "cfg")
	polCode(t, "Delete cfg", err, llmfs.CodePermissionDenied)
	_, err = w.Mkdir(ctx, "gitdir/x")
	polCode(t, "Mkdir gitdir/x", err, llmfs.CodePermissionDenied)
	_, err = w.Delete(ctx, "dotenvdir/.env")
	polCode(t, "Delete dotenvdir/.env", err, llmfs.CodePermissionDenied)
	_, err = w.Move(ctx, "dotenvdir", "opened")
	polCode(t, "Move dotenvdir", err, llmfs.CodeInvalidPath)

	if got, _ := polRead(t, filepath.Join(dir, ".git/config")); got != "[core]\n" {
		t.Errorf(".git/config = %q after refused writes", got)
	}
	if got, _ := polRead(t, filepath.Join(dir, ".env")); got != "TOKEN=1\n" {
		t.Errorf(".env = %q after refused edit", got)
	}
	for _, p := range []string{".git/hooks", ".git/hooks/post-commit", ".git/new", ".git/x", ".git/README.md", "stolen.txt", "opened"} {
		if _, ok := polRead(t, filepath.Join(dir, p)); ok {
			t.Errorf("%s exists after refused operations", p)
		}
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s exists after refused operations", p)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "cfg")); err != nil {
		t.Errorf("cfg link removed by a refused delete: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("README.md moved by a refused move: %v", err)
	}

	// The public checks a search engine uses.
	if !w.Paths().Denied(".ENV") || w.Paths().Denied("gitdir") {
		t.Errorf("Denied(.ENV) = %v, Denied(gitdir) = %v; want true, false (Denied follows no link)", w.Paths().Denied(".ENV"), w.Paths().Denied("gitdir"))
	}
	if !w.Paths().DeniedPath(ctx, "gitdir") || !w.Paths().DeniedPath(ctx, "app/innocent.txt") || w.Paths().DeniedPath(ctx, "docs/readme") {
		t.Error("DeniedPath does not follow links into denied paths")
	}
}

// TestDenyRelaxedWorkspace checks that deny rules match paths relative to the root in a
// relaxed workspace too, whose store is rooted at "/".
func TestDenyRelaxedWorkspace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	polTree(t, dir, map[string]string{"ws/.git/config": "x", "ws/a.txt": "a", "other/.env": "E=1"})
	w, err := host.Open(&llmfs.Options{Root: filepath.Join(dir, "ws"), Relaxed: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Read(ctx, ".git/config", llmfs.ReadOptions{})
	polCode(t, "Read .git/config", err, llmfs.CodePermissionDenied)
	_, err = w.Read(ctx, "../other/.env", llmfs.ReadOptions{})
	polCode(t, "Read ../other/.env", err, llmfs.CodePermissionDenied)
	if _, err := w.Read(ctx, "a.txt", llmfs.ReadOptions{}); err != nil {
		t.Errorf("Read a.txt: %v", err)
	}
}

func TestOpenRefusesBadPolicy(t *testing.T) {
	_, err := host.Open(&llmfs.Options{Root: t.TempDir(), Deny: []string{"[x"}})
	polCode(t, "Open", err, llmfs.CodeInvalidArgument)
}
