package llmfs_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/mem"
)

// polSeed puts files into a store directly, below any workspace policy.
func polSeed(t *testing.T, s store.Store, files map[string]string) {
	t.Helper()
	ctx := context.Background()
	for name, content := range files {
		dir := ""
		for _, elem := range strings.Split(name, "/")[:strings.Count(name, "/")] {
			if dir != "" {
				dir += "/"
			}
			dir += elem
			if err := s.Mkdir(ctx, dir); err != nil && !errors.Is(err, fs.ErrExist) {
				t.Fatal(err)
			}
		}
		if _, err := s.WriteFile(ctx, name, strings.NewReader(content), store.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// polContent returns the content of a store file and whether it exists.
func polContent(t *testing.T, s store.Store, name string) (string, bool) {
	t.Helper()
	f, err := s.Open(context.Background(), name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

func polExists(s store.Store, name string) bool {
	_, err := store.Lstat(context.Background(), s, name)
	return err == nil
}

func polCode(t *testing.T, what string, err error, want llmfs.Code) {
	t.Helper()
	if got := llmfs.CodeOf(err); got != want {
		t.Fatalf("%s: code %q (err %v), want %q", what, got, err, want)
	}
}

// TestModeEachOperation runs every operation in every mode: a mode that forbids it refuses
// with PERMISSION_DENIED, says why, and changes nothing; a mode that allows it lets it run.
func TestModeEachOperation(t *testing.T) {
	ctx := context.Background()
	type op struct {
		op  llmfs.Op
		run func(w *llmfs.Workspace) error
		// changed reports whether the operation left its mark on the store.
		changed func(s store.Store) bool
	}
	unchanged := func(store.Store) bool { return false }
	ops := []op{
		{llmfs.OpRead, func(w *llmfs.Workspace) error { _, err := w.Read(ctx, "a.txt", llmfs.ReadOptions{}); return err }, unchanged},
		{llmfs.OpList, func(w *llmfs.Workspace) error { _, err := w.List(ctx, "."); return err }, unchanged},
		{llmfs.OpWrite, func(w *llmfs.Workspace) error {
			_, err := w.Write(ctx, "new/b.txt", "b", llmfs.WriteOptions{})
			return err
		}, func(s store.Store) bool { return polExists(s, "new") }},
		{llmfs.OpEdit, func(w *llmfs.Workspace) error { _, err := w.Edit(ctx, "a.txt", "alpha", "ALPHA", false); return err },
			func(s store.Store) bool { c, _ := polContent(t, s, "a.txt"); return c != "alpha\n" }},
		{llmfs.OpMkdir, func(w *llmfs.Workspace) error { _, err := w.Mkdir(ctx, "d/e"); return err },
			func(s store.Store) bool { return polExists(s, "d") }},
		{llmfs.OpMove, func(w *llmfs.Workspace) error { _, err := w.Move(ctx, "a.txt", "m/a.txt"); return err },
			func(s store.Store) bool { return !polExists(s, "a.txt") || polExists(s, "m") }},
		{llmfs.OpCopy, func(w *llmfs.Workspace) error { _, err := w.Copy(ctx, "a.txt", "c/a.txt"); return err },
			func(s store.Store) bool { return polExists(s, "c") }},
		{llmfs.OpDelete, func(w *llmfs.Workspace) error { _, err := w.Delete(ctx, "a.txt"); return err },
			func(s store.Store) bool { return !polExists(s, "a.txt") }},
	}
	for _, mode := range []llmfs.Mode{llmfs.ReadOnly, llmfs.ReadWrite, llmfs.Full, ""} {
		for _, o := range ops {
			t.Run(string(mode)+"/"+string(o.op), func(t *testing.T) {
				s := mem.New()
				polSeed(t, s, map[string]string{"a.txt": "alpha\n"})
				w := llmfs.New(s, &llmfs.Options{Mode: mode})
				err := o.run(w)
				if mode.Allows(o.op) {
					if err != nil {
						t.Fatalf("%s in mode %q: %v", o.op, mode, err)
					}
					return
				}
				polCode(t, string(o.op), err, llmfs.CodePermissionDenied)
				if !errors.Is(err, fs.ErrPermission) {
					t.Errorf("errors.Is(err, fs.ErrPermission) = false for %v", err)
				}
				msg := err.Error()
				switch mode {
				case llmfs.ReadOnly:
					if !strings.Contains(msg, "read-only") || !strings.Contains(msg, "Use read, list, find or grep") {
						t.Errorf("message %q does not say the workspace is read-only and what to use", msg)
					}
				case llmfs.ReadWrite:
					if !strings.Contains(msg, "full mode") {
						t.Errorf("message %q does not say deleting needs the full mode", msg)
					}
				}
				if o.changed(s) {
					t.Errorf("%s in mode %q was refused but changed the store", o.op, mode)
				}
			})
		}
	}
}

func TestInvalidOptionsFailEveryOperation(t *testing.T) {
	ctx := context.Background()
	for name, opts := range map[string]*llmfs.Options{
		"mode":  {Mode: "root"},
		"deny":  {Deny: []string{"[unclosed"}},
		"quota": {Quota: llmfs.Quota{MaxFiles: -1}},
	} {
		t.Run(name, func(t *testing.T) {
			s := mem.New()
			polSeed(t, s, map[string]string{"a.txt": "a"})
			w := llmfs.New(s, opts)
			polCode(t, "Err", w.Err(), llmfs.CodeInvalidArgument)
			_, err := w.Read(ctx, "a.txt", llmfs.ReadOptions{})
			polCode(t, "read", err, llmfs.CodeInvalidArgument)
			_, err = w.Write(ctx, "b.txt", "b", llmfs.WriteOptions{})
			polCode(t, "write", err, llmfs.CodeInvalidArgument)
			if polExists(s, "b.txt") {
				t.Error("write went through on a workspace with invalid options")
			}
		})
	}
}

func TestDenyRulesOnMem(t *testing.T) {
	ctx := context.Background()
	s := mem.New()
	polSeed(t, s, map[string]string{
		".git/config":        "[core]\n",
		".git/objects/ab/cd": "blob",
		".env":               "TOKEN=1\n",
		"app/.ENV":           "TOKEN=2\n",
		"app/.Envrc":         "ok, not a .env\n",
		"app/main.go":        "package main\n",
		"certs/server.PEM":   "key\n",
		"home/.ssh/id_rsa":   "key\n",
		"home/.ssh/known":    "host\n",
		"secret/only.pem":    "key\n",
		"README.md":          "hi\n",
	})
	w := llmfs.New(s, nil)

	names := func(p string) []string {
		t.Helper()
		es, err := w.List(ctx, p)
		if err != nil {
			t.Fatalf("List(%q): %v", p, err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	if got, want := strings.Join(names("."), " "), "README.md app certs home secret"; got != want {
		t.Errorf("List(.) = %s, want %s", got, want)
	}
	if got, want := strings.Join(names("app"), " "), ".Envrc main.go"; got != want {
		t.Errorf("List(app) = %s, want %s", got, want)
	}
	if got := names("secret"); len(got) != 0 {
		t.Errorf("List(secret) = %v, want nothing (its only file is denied)", got)
	}
	if got, want := strings.Join(names("home/.ssh"), " "), "known"; got != want {
		t.Errorf("List(home/.ssh) = %s, want %s", got, want)
	}

	for _, p := range []string{".git", ".git/config", "/.git/objects/ab/cd", ".env", "./app/../.env", "app/.ENV", "APP/.env",
		"certs/server.PEM", "home/.ssh/id_rsa", "home/.ssh/ID_RSA.pub", ".GIT/config", "secret/only.pem"} {
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		polCode(t, "Read "+p, err, llmfs.CodePermissionDenied)
		if err != nil && !strings.Contains(err.Error(), "deny rule") {
			t.Errorf("Read %s: message %q does not name the deny rule", p, err)
		}
	}
	_, err := w.List(ctx, ".git")
	polCode(t, "List .git", err, llmfs.CodePermissionDenied)

	// Writes, edits, moves and copies in and out of denied paths.
	_, err = w.Write(ctx, "app/.env", "X=1", llmfs.WriteOptions{})
	polCode(t, "Write app/.env", err, llmfs.CodePermissionDenied)
	_, err = w.Write(ctx, ".git/hooks/pre-commit", "evil", llmfs.WriteOptions{})
	polCode(t, "Write .git/hooks", err, llmfs.CodePermissionDenied)
	_, err = w.Edit(ctx, ".env", "TOKEN", "T", false)
	polCode(t, "Edit .env", err, llmfs.CodePermissionDenied)
	_, err = w.Mkdir(ctx, ".git/new")
	polCode(t, "Mkdir .git/new", err, llmfs.CodePermissionDenied)
	_, err = w.Move(ctx, ".env", "env.txt")
	polCode(t, "Move .env out", err, llmfs.CodePermissionDenied)
	_, err = w.Copy(ctx, "app/.ENV", "env.txt")
	polCode(t, "Copy .ENV out", err, llmfs.CodePermissionDenied)
	_, err = w.Move(ctx, "README.md", "x/.env")
	polCode(t, "Move onto .env", err, llmfs.CodePermissionDenied)
	_, err = w.Copy(ctx, "README.md", ".git/README.md")
	polCode(t, "Copy into .git", err, llmfs.CodePermissionDenied)
	_, err = w.Delete(ctx, ".env")
	polCode(t, "Delete .env", err, llmfs.CodePermissionDenied)
	// A directory whose files are all denied cannot be removed or moved to expose them.
	_, err = w.Delete(ctx, "secret")
	polCode(t, "Delete secret/", err, llmfs.CodeInvalidPath)
	_, err = w.Move(ctx, "secret", "open")
	polCode(t, "Move secret/", err, llmfs.CodeInvalidPath)

	for name, want := range map[string]string{".env": "TOKEN=1\n", "app/.ENV": "TOKEN=2\n", "secret/only.pem": "key\n", "README.md": "hi\n"} {
		if got, ok := polContent(t, s, name); !ok || got != want {
			t.Errorf("%s = %q, %v after refused operations; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"app/.env", ".git/hooks", ".git/new", "env.txt", "x", ".git/README.md", "open"} {
		if polExists(s, name) {
			t.Errorf("%s exists after refused operations", name)
		}
	}
	// Allowed neighbours still work.
	if _, err := w.Read(ctx, "app/.Envrc", llmfs.ReadOptions{}); err != nil {
		t.Errorf("Read app/.Envrc: %v", err)
	}
}

func TestDenyConfigurable(t *testing.T) {
	ctx := context.Background()
	s := mem.New()
	polSeed(t, s, map[string]string{".env": "A=1\n", "private/notes.md": "x\n", "Private2/a": "y", "ok.md": "ok"})

	w := llmfs.New(s, &llmfs.Options{Deny: []string{"private/**"}})
	for _, p := range []string{".env", "private/notes.md", "PRIVATE/notes.md"} {
		_, err := w.Read(ctx, p, llmfs.ReadOptions{})
		polCode(t, "Read "+p, err, llmfs.CodePermissionDenied)
	}
	if got := w.Settings().Policy.Deny; len(got) != len(llmfs.DefaultDeny)+1 {
		t.Errorf("Policy().Deny = %v, want the defaults and private/**", got)
	}

	w = llmfs.New(s, &llmfs.Options{Deny: []string{"private/**"}, NoDefaultDeny: true})
	if _, err := w.Read(ctx, ".env", llmfs.ReadOptions{}); err != nil {
		t.Errorf("Read .env without default rules: %v", err)
	}
	_, err := w.Read(ctx, "private/notes.md", llmfs.ReadOptions{})
	polCode(t, "Read private/notes.md", err, llmfs.CodePermissionDenied)

	w = llmfs.New(s, &llmfs.Options{NoDefaultDeny: true})
	if w.Paths().Denied(".env") || w.Paths().Denied(".git/config") {
		t.Error("Denied reports true with no rules")
	}
}

func TestDeniedAPI(t *testing.T) {
	w := llmfs.New(mem.New(), &llmfs.Options{Deny: []string{"build/*.log"}})
	type test struct {
		path string
		want bool
	}
	for _, tt := range []test{
		{".", false},
		{"/", false},
		{".git", true},
		{".git/HEAD", true},
		{"/.git/HEAD", true},
		{"sub/.git/HEAD", true}, // nested repositories too (Issue 12.6)
		{".gitignore", false},
		{".env", true},
		{"a/b/.env", true},
		{"a/b/.env/inner", true}, // below a denied directory
		{".env.example", true},
		{".envrc", false},
		{"x.pem", true},
		{"X.PEM", true},
		{"id_rsa.pub", true},
		{"build/a.key", true},
		{"build/a.log", true},
		{"build/sub/a.log", false},
		{"src/main.go", false},
	} {
		if got := w.Paths().Denied(tt.path); got != tt.want {
			t.Errorf("Denied(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestValidateDeny(t *testing.T) {
	if err := llmfs.ValidateDeny(llmfs.DefaultDeny); err != nil {
		t.Errorf("ValidateDeny(DefaultDeny) = %v", err)
	}
	for _, bad := range []string{"", "[a-", "a/{b"} {
		err := llmfs.ValidateDeny([]string{bad})
		polCode(t, "ValidateDeny "+bad, err, llmfs.CodeInvalidArgument)
	}
}
