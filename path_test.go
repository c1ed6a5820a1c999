//go:build !js && !wasip1

package llmfs_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/host"
	"github.com/llmfs/llmfs/store/mem"
)

// sandboxed returns an osdir workspace and a mem workspace shown at /ws, each with
// a.txt and dir/b.txt.
func sandboxed(t *testing.T) []*llmfs.Workspace {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	noErr(t, err)
	root := filepath.Join(parent, "ws")
	mkdirs(t, root, root+"-evil")
	host, err := host.Open(&llmfs.Options{Root: root})
	noErr(t, err)
	virtual := llmfs.New(mem.New(), &llmfs.Options{Root: "/ws"})
	for _, w := range []*llmfs.Workspace{host, virtual} {
		put(t, w, "a.txt", "a")
		put(t, w, "dir/b.txt", "b")
	}
	return []*llmfs.Workspace{host, virtual}
}

func TestFsContext_SandboxRejectsOutside(t *testing.T) {
	for _, w := range sandboxed(t) {
		root := w.Root()
		for _, p := range []string{"..", "../x", "../ws-evil/x", root + "-evil/x", root + "/../x", "/", "/x", "a/../../x", "dir/../../x", "./../x", "//x", "../", "../ws-evil/"} {
			_, err := w.Read(bg, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Write(bg, p, "x", llmfs.WriteOptions{})
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Mkdir(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.List(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Delete(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Copy(bg, "a.txt", p)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Move(bg, "a.txt", p)
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		if mustRaw(t, w, "a.txt") != "a" {
			t.Errorf("%s: a.txt changed", root)
		}
	}
}

func TestFsContext_RootItselfAllowed(t *testing.T) {
	for _, w := range sandboxed(t) {
		for _, p := range []string{".", "./", w.Root(), w.Root() + "/", "dir/..", w.Root() + "/dir/.."} {
			entries, err := w.List(bg, p)
			if err != nil || len(entries) != 2 {
				t.Errorf("%s: List(%q) = %v, %v; want the root's 2 entries", w.Root(), p, entries, err)
			}
		}
	}
}

func TestFsContext_RelaxedJoinsRelativeToRoot(t *testing.T) {
	dir := t.TempDir()
	w, err := host.Open(&llmfs.Options{Root: dir, Relaxed: true})
	noErr(t, err)
	res, err := w.Write(bg, "sub/rel.txt", "relative", llmfs.WriteOptions{})
	noErr(t, err)
	if res.Path != filepath.Join(dir, "sub/rel.txt") {
		t.Errorf("Path = %q", res.Path)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sub/rel.txt")); err != nil || string(b) != "relative" {
		t.Errorf("the relative write did not land under the root: %q, %v", b, err)
	}
}

// TestFsContext_RelaxedVirtualStore checks the limit of relaxed mode on a store that has
// nothing above its root: paths outside it are refused, not mapped somewhere.
func TestFsContext_RelaxedVirtualStore(t *testing.T) {
	w := llmfs.New(mem.New(), &llmfs.Options{Root: "/ws", Relaxed: true})
	put(t, w, "a.txt", "a")
	_, err := w.Read(bg, "../x", llmfs.ReadOptions{})
	wantCode(t, err, llmfs.CodeInvalidPath)
	w = llmfs.New(mem.New(), &llmfs.Options{Relaxed: true})
	if res, err := w.Write(bg, "../../up.txt", "x", llmfs.WriteOptions{}); err != nil || res.Path != "/up.txt" {
		t.Errorf("relaxed write above the / root = %v, %v; want /up.txt", res, err)
	}
}

func TestFsContext_DefaultRootIsCanonicalCwd(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	noErr(t, err)
	link := filepath.Join(t.TempDir(), "link")
	noErr(t, os.Symlink(real, link))
	t.Chdir(link)
	for _, opts := range []*llmfs.Options{nil, {}, {Root: "."}, {Root: link}} {
		w, err := host.Open(opts)
		noErr(t, err)
		if w.Root() != real {
			t.Errorf("Open(%+v).Root() = %q, want the canonical %q", opts, w.Root(), real)
		}
		res, err := w.Write(bg, "here.txt", "x", llmfs.WriteOptions{})
		noErr(t, err)
		if res.Path != filepath.Join(real, "here.txt") {
			t.Errorf("Write(here.txt).Path = %q", res.Path)
		}
	}
	// The root is fixed at open: changing directory later does not move it.
	w, err := host.Open(nil)
	noErr(t, err)
	t.Chdir(t.TempDir())
	if res, err := w.Write(bg, "later.txt", "x", llmfs.WriteOptions{}); err != nil || res.Path != filepath.Join(real, "later.txt") {
		t.Errorf("after chdir: Write = %v, %v", res, err)
	}
}

func TestFsContext_OpenRootMustBeDirectory(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	noErr(t, os.WriteFile(f, nil, 0o644))
	_, err := host.Open(&llmfs.Options{Root: f})
	wantCode(t, err, llmfs.CodeInvalidPath)
	_, err = host.Open(&llmfs.Options{Root: filepath.Join(dir, "missing")})
	wantCode(t, err, llmfs.CodeFileNotFound)
}

func TestFsContext_LexicalNormalization(t *testing.T) {
	for _, w := range sandboxed(t) {
		base := filepath.Base(w.Root())
		tests := []struct{ in, want string }{
			{"a/./b/../c.txt", "a/c.txt"},
			{"a//b.txt", "a/b.txt"},
			{"./x.txt", "x.txt"},
			{"x/y/../../z.txt", "z.txt"},
			{"../" + base + "/back.txt", "back.txt"},
			{w.Root() + "/./abs/../abs.txt", "abs.txt"},
			// "t/" names a directory, not the file t: TestTrailingSlashNamesADirectory.
		}
		for _, tt := range tests {
			res, err := w.Write(bg, tt.in, tt.in, llmfs.WriteOptions{})
			if err != nil {
				t.Errorf("Write(%q): %v", tt.in, err)
				continue
			}
			if res.Path != abs(w, tt.want) {
				t.Errorf("Write(%q).Path = %q, want %q", tt.in, res.Path, abs(w, tt.want))
			}
			if got, _ := raw(t, w, tt.want); got != tt.in {
				t.Errorf("Write(%q) did not land at %s", tt.in, tt.want)
			}
		}
	}
}

// TestFsContext_LexicalBeforeSymlinks checks that ".." is folded before any symbolic link
// is followed: "ln/../a.txt" is the root's a.txt even when ln points elsewhere.
func TestFsContext_LexicalBeforeSymlinks(t *testing.T) {
	w := sandboxed(t)[0]
	put(t, w, "dir/sub/a.txt", "nested")
	noErr(t, os.Symlink("dir/sub", filepath.Join(w.Root(), "ln")))
	if res := readAll(t, w, "ln/../a.txt"); res.Content != "a" || res.Path != abs(w, "a.txt") {
		t.Errorf("Read(ln/../a.txt) = %q at %s, want the root's a.txt", res.Content, res.Path)
	}
}

func TestFsContext_EmptyAndNULRejected(t *testing.T) {
	for _, w := range sandboxed(t) {
		for _, p := range []string{"", "\x00", "a.txt\x00", "dir/\x00/b.txt"} {
			_, err := w.Read(bg, p, llmfs.ReadOptions{})
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Write(bg, p, "x", llmfs.WriteOptions{})
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		entries, err := w.List(bg, ".")
		noErr(t, err)
		for _, e := range entries {
			if strings.ContainsRune(e.Name, 0) {
				t.Errorf("a file with a NUL byte was created")
			}
		}
	}
}

func TestFsContext_RelWithinRoot(t *testing.T) {
	for _, w := range sandboxed(t) {
		if got := w.Paths().Rel(w.Root() + "/dir/b.txt"); got != "dir/b.txt" {
			t.Errorf("Rel = %q", got)
		}
		if got := w.Paths().Rel(w.Root()); got != "." {
			t.Errorf("Rel(root) = %q", got)
		}
		if got := w.Paths().Rel(w.Root() + "-evil/x"); got != w.Root()+"-evil/x" {
			t.Errorf("Rel(sibling) = %q, want it unchanged", got)
		}
	}
}

// TestFsContext_RelaxedAllowsOutside checks that a relaxed workspace reaches outside its root by
// .. and by absolute paths, and still refuses empty paths and NUL bytes.
func TestFsContext_RelaxedAllowsOutside(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root, Relaxed: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{"../outside/secret.txt", site.outside + "/secret.txt", "dir/../../ws-evil/secret", "ln-secret", "ln-outdir/sub/deep.txt"} {
		res, err := w.Read(ctx, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err != nil || res.Content != secret {
			t.Errorf("relaxed Read(%s) = %v, %v; want the secret", p, res, err)
		}
	}
	res, err := w.Write(ctx, "../outside/new/deep.txt", "relaxed", llmfs.WriteOptions{})
	if err != nil || res.Path != site.outside+"/new/deep.txt" {
		t.Errorf("relaxed Write(../outside/new/deep.txt) = %v, %v", res, err)
	}
	if b, _ := os.ReadFile(site.outside + "/new/deep.txt"); string(b) != "relaxed" {
		t.Errorf("outside/new/deep.txt = %q", b)
	}
	if _, err := w.Write(ctx, "inside.txt", "in", llmfs.WriteOptions{}); err != nil {
		t.Errorf("relaxed Write(inside.txt): %v", err)
	} else if b, _ := os.ReadFile(site.root + "/inside.txt"); string(b) != "in" {
		t.Errorf("relaxed relative write landed elsewhere: %q", b)
	}
	for _, p := range []string{"", "a\x00b"} {
		if _, err := w.Read(ctx, p, llmfs.ReadOptions{}); llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("relaxed Read(%q) = %v, want INVALID_PATH", p, err)
		}
	}
	// Devices are never opened: /dev/zero would never end, /dev/null would swallow writes.
	for _, dev := range []string{"/dev/zero", "/dev/null", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		_, err := w.Read(ctx, dev, llmfs.ReadOptions{Limit: llmfs.NoLimit})
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Write(ctx, dev, "x", llmfs.WriteOptions{Mode: llmfs.AppendTo})
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Copy(ctx, dev, "copy-of-device")
		wantCode(t, err, llmfs.CodeInvalidPath)
	}
	errc := make(chan error, 1)
	go func() { _, err := w.Read(ctx, "fifo", llmfs.ReadOptions{}); errc <- err }()
	select {
	case err := <-errc:
		if llmfs.CodeOf(err) != llmfs.CodeInvalidPath {
			t.Errorf("relaxed Read(fifo) = %v, want INVALID_PATH", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("relaxed Read(fifo) blocked")
	}
}

// TestFsContext_SymlinksResolvedBeforeContainment checks that containment is judged on the
// real path: a link inside the root that leads inside works, one that leads out is
// INVALID_PATH however it is spelled.
func TestFsContext_SymlinksResolvedBeforeContainment(t *testing.T) {
	site := newAttackSite(t)
	w, err := host.Open(&llmfs.Options{Root: site.root})
	noErr(t, err)
	noErr(t, os.Symlink("dir/b.txt", filepath.Join(site.root, "ln-in")))
	noErr(t, os.Symlink(filepath.Join(site.root, "dir"), filepath.Join(site.root, "ln-in-abs")))
	for _, p := range []string{"ln-in", "ln-in-abs/b.txt", "dir/ln-up/ws/a.txt"} {
		res, err := w.Read(bg, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
		if err != nil || !strings.HasPrefix(res.Content, "inside") {
			t.Errorf("Read(%s) = %v, %v; want the file inside", p, res, err)
		}
	}
	for _, p := range []string{"ln-secret", "ln-rel-secret", "ln-outdir/secret.txt", "ln-evil/secret", "dir/ln-up/outside/secret.txt"} {
		_, err := w.Read(bg, p, llmfs.ReadOptions{Limit: llmfs.NoLimit})
		wantCode(t, err, llmfs.CodeInvalidPath)
	}
}

// Issue 13.14: a trailing slash names a directory, as in POSIX: a write to "newf/" made a
// file newf, and "h.txt/" read the file h.txt. Every operation now holds to it.
func TestTrailingSlashNamesADirectory(t *testing.T) {
	eachBackend(t, nil, func(t *testing.T, w *llmfs.Workspace) {
		for _, v := range []*llmfs.Workspace{w, w.With(llmfs.VirtualPaths())} {
			for _, mode := range []llmfs.WriteMode{llmfs.Overwrite, llmfs.AppendTo, llmfs.Create} {
				_, err := v.Write(bg, "newf/", "x", llmfs.WriteOptions{Mode: mode})
				wantCode(t, err, llmfs.CodeInvalidPath)
			}
			if exists(w, "newf") {
				t.Fatal("a write to newf/ created newf")
			}
		}
		put(t, w, "h.txt", "hello\n")
		put(t, w, "d/in.txt", "in\n")
		for _, p := range []string{"h.txt/", "h.txt/.", "/h.txt/"} {
			if p[0] == '/' {
				p = abs(w, "h.txt") + "/"
			}
			_, err := w.Read(bg, p, llmfs.ReadOptions{})
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.ReadTo(bg, p, llmfs.ReadOptions{}, io.Discard)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Edit(bg, p, "hello", "bye", false)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Delete(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Move(bg, p, "moved.txt")
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Copy(bg, p, "copied.txt")
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.Grep(bg, llmfs.GrepOptions{Pattern: "hello", Path: p})
			wantCode(t, err, llmfs.CodeInvalidPath)
			_, err = w.List(bg, p)
			wantCode(t, err, llmfs.CodeInvalidPath)
		}
		for _, dst := range []string{"n/", "d/"} {
			_, err := w.Move(bg, "h.txt", dst)
			if err == nil {
				t.Errorf("Move(h.txt, %s) succeeded", dst)
			}
			_, err = w.Copy(bg, "h.txt", dst)
			if err == nil {
				t.Errorf("Copy(h.txt, %s) succeeded", dst)
			}
		}
		if got := mustRaw(t, w, "h.txt"); got != "hello\n" || exists(w, "n") || exists(w, "moved.txt") || exists(w, "copied.txt") {
			t.Errorf("a refused operation changed something: h.txt = %q", got)
		}
		// A directory named with a slash is as without it.
		if _, err := w.List(bg, "d/"); err != nil {
			t.Errorf("List(d/): %v", err)
		}
		if _, err := w.Mkdir(bg, "e/"); err != nil || !isDir(w, "e") {
			t.Errorf("Mkdir(e/): %v", err)
		}
		_, err := w.Read(bg, "d/", llmfs.ReadOptions{})
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Delete(bg, "d/")
		wantCode(t, err, llmfs.CodeInvalidPath)
		_, err = w.Read(bg, "nope/", llmfs.ReadOptions{})
		wantCode(t, err, llmfs.CodeFileNotFound)
		if _, err := w.Grep(bg, llmfs.GrepOptions{Pattern: "in", Path: "d/"}); err != nil {
			t.Errorf("Grep in d/: %v", err)
		}
	})
}

// TestRelOfRelativePath: on a workspace rooted at "/" (memory, SQL, IndexedDB), Rel cut the
// first letter off a path that was already relative ("streamed.txt" became "treamed.txt"),
// which the console's grep results showed.
func TestRelOfRelativePath(t *testing.T) {
	w := llmfs.New(mem.New(), nil)
	for in, want := range map[string]string{
		"streamed.txt":   "streamed.txt",
		"./a/../b/c.txt": "b/c.txt",
		"/streamed.txt":  "streamed.txt",
		"/":              ".",
		".":              ".",
	} {
		if got := w.Paths().Rel(in); got != want {
			t.Errorf("Rel(%q) = %q, want %q", in, got, want)
		}
	}
}
