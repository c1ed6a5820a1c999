package storetest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmfs/llmfs/store"
)

// symlink makes a symbolic link newname -> target on the host.
func (e *env) symlink(target, newname string) {
	e.t.Helper()
	loc, ok := e.raw.(store.Locator)
	if !ok {
		e.t.Fatalf("Opt.Symlinks is set but %T is not a store.Locator", e.raw)
	}
	if err := os.Symlink(target, loc.HostPath(newname)); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) hostPath(name string) string {
	return e.raw.(store.Locator).HostPath(name)
}

// testSymlinks makes links of every kind on the host and checks the store through them.
func testSymlinks(e *env) {
	if !e.opt.Symlinks {
		e.t.Skip("the store has no symbolic links")
	}
	e.mkdir("d")
	e.write("d/f", "target content")
	e.symlink("d/f", "ln-file")
	e.symlink("d", "ln-dir")
	e.symlink(e.hostPath("d/f"), "abs-file")
	e.symlink(e.hostPath("d"), "abs-dir")
	e.symlink("ln-file", "chain")
	e.symlink("nothing", "dangling")
	e.symlink("loop2", "loop1")
	e.symlink("loop1", "loop2")

	symlinkReads(e)
	symlinkWrites(e)
	symlinkOwnOps(e)

	if e.opt.Unconfined {
		return
	}
	testSymlinkEscapes(e)
}

// symlinkReads checks that Stat, ReadDir and Open follow the links testSymlinks made,
// that Lstat and listings show the links themselves, and that dangling and looping links fail.
func symlinkReads(e *env) {
	for _, name := range []string{"ln-file", "abs-file", "chain", "ln-dir/f", "abs-dir/f"} {
		fi, err := e.s.Stat(ctx, name)
		e.noErr("Stat("+name+")", err)
		if fi.Size() != int64(len("target content")) || !fi.Mode().IsRegular() {
			e.t.Errorf("Stat(%s): size %d mode %v, want the target's", name, fi.Size(), fi.Mode())
		}
		if got := e.read(name); got != "target content" {
			e.t.Errorf("read %s = %q", name, got)
		}
	}
	for _, name := range []string{"ln-dir", "abs-dir"} {
		fi, err := e.s.Stat(ctx, name)
		e.noErr("Stat("+name+")", err)
		if !fi.IsDir() {
			e.t.Errorf("Stat(%s): mode %v, want a directory", name, fi.Mode())
		}
		des, err := e.s.ReadDir(ctx, name)
		e.noErr("ReadDir("+name+")", err)
		if len(des) != 1 || des[0].Name() != "f" {
			e.t.Errorf("ReadDir(%s) = %v, want [f]", name, des)
		}
	}
	if l, ok := e.s.(store.Lstater); ok {
		fi, err := l.Lstat(ctx, "ln-file")
		e.noErr("Lstat(ln-file)", err)
		if fi.Mode()&fs.ModeSymlink == 0 {
			e.t.Errorf("Lstat(ln-file): mode %v, want a symbolic link", fi.Mode())
		}
	}
	des, err := e.s.ReadDir(ctx, ".")
	e.noErr("ReadDir(.)", err)
	for _, de := range des {
		if strings.HasPrefix(de.Name(), "d") && de.Name() != "dangling" {
			continue
		}
		if de.Type()&fs.ModeSymlink == 0 {
			e.t.Errorf("ReadDir(.): %s has type %v, want a symbolic link", de.Name(), de.Type())
		}
	}
	_, err = e.s.Stat(ctx, "dangling")
	e.wantErr("Stat(dangling)", err, fs.ErrNotExist)
	for _, name := range []string{"abs-dir/missing", "abs-dir/missing/deeper", "ln-dir/missing/deeper/still"} {
		_, err = e.s.Stat(ctx, name)
		e.wantErr("Stat("+name+")", err, fs.ErrNotExist)
	}
	if _, err := e.s.Stat(ctx, "loop1"); err == nil {
		e.t.Errorf("Stat of a symlink loop succeeded")
	}
	if _, err := e.s.Open(ctx, "loop1"); err == nil {
		e.t.Errorf("Open of a symlink loop succeeded")
	}
}

// symlinkWrites checks that changes through links land in their targets.
func symlinkWrites(e *env) {
	// Writes go through links to their targets; the links stay links.
	e.write("ln-file", "via link")
	e.write("ln-dir/new", "new via dir link")
	e.write("abs-dir/new2", "new via absolute dir link")
	if got := e.read("d/f"); got != "via link" {
		e.t.Errorf("d/f after a write through ln-file = %q", got)
	}
	if got := e.read("d/new"); got != "new via dir link" {
		e.t.Errorf("d/new = %q", got)
	}
	if got := e.read("d/new2"); got != "new via absolute dir link" {
		e.t.Errorf("d/new2 = %q", got)
	}
	e.write("abs-file", "via absolute link")
	if got := e.read("d/f"); got != "via absolute link" {
		e.t.Errorf("d/f after a write through abs-file = %q", got)
	}
	if fi, err := os.Lstat(e.hostPath("ln-file")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		e.t.Errorf("ln-file is no longer a symbolic link after a write through it")
	}
	// Renames follow links in both names.
	e.noErr("Rename into an absolute dir link", e.s.Rename(ctx, "d/new2", "abs-dir/renamed"))
	e.noErr("Rename into a relative dir link", e.s.Rename(ctx, "d/renamed", "ln-dir/renamed2"))
	e.noErr("Rename out of an absolute dir link", e.s.Rename(ctx, "abs-dir/renamed2", "renamed3"))
	if got := e.read("renamed3"); got != "new via absolute dir link" {
		e.t.Errorf("renamed3 = %q", got)
	}
	e.noErr("Mkdir through a link", e.s.Mkdir(ctx, "ln-dir/sub"))
	if fi, err := e.s.Stat(ctx, "d/sub"); err != nil || !fi.IsDir() {
		e.t.Errorf("Mkdir(ln-dir/sub) did not create d/sub: %v", err)
	}
}

// symlinkOwnOps checks that Remove and Rename of a link act on the link, not its target.
func symlinkOwnOps(e *env) {
	// Removing a link removes the link, never its target.
	e.noErr("Remove(chain)", e.s.Remove(ctx, "chain"))
	e.noErr("Remove(ln-dir)", e.s.Remove(ctx, "ln-dir"))
	if got := e.read("d/f"); got != "via absolute link" {
		e.t.Errorf("d/f after removing links = %q", got)
	}
	if _, err := os.Lstat(e.hostPath("chain")); !errors.Is(err, fs.ErrNotExist) {
		e.t.Errorf("chain still there after Remove: %v", err)
	}
	// Renaming a link moves the link.
	e.noErr("Rename(ln-file, d/moved-link)", e.s.Rename(ctx, "ln-file", "d/moved-link"))
	if fi, err := os.Lstat(e.hostPath("d/moved-link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		e.t.Errorf("d/moved-link is not a symbolic link after Rename: %v", err)
	}

	// The same holds for a link reached through an absolute directory link, which a
	// sandboxed store resolves on the host: only the directories on the way are followed.
	e.symlink("f", "d/inner")
	if fi, err := store.Lstat(ctx, e.raw, "abs-dir/inner"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		e.t.Errorf("store.Lstat(abs-dir/inner) = %v, %v; want the link", fi, err)
	}
	e.noErr("Rename(abs-dir/inner, abs-dir/inner2)", e.s.Rename(ctx, "abs-dir/inner", "abs-dir/inner2"))
	if fi, err := os.Lstat(e.hostPath("d/inner2")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		e.t.Errorf("d/inner2 is not a symbolic link after Rename through abs-dir: %v", err)
	}
	e.noErr("Remove(abs-dir/inner2)", e.s.Remove(ctx, "abs-dir/inner2"))
	if _, err := os.Lstat(e.hostPath("d/inner2")); !errors.Is(err, fs.ErrNotExist) {
		e.t.Errorf("d/inner2 still there after Remove through abs-dir: %v", err)
	}
	if got := e.read("d/f"); got != "via absolute link" {
		e.t.Errorf("d/f after removing a link to it through abs-dir = %q", got)
	}
}

// testSymlinkEscapes checks that no link leads out of a confined store.
func testSymlinkEscapes(e *env) {
	outside := e.t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("top secret"), 0o644); err != nil {
		e.t.Fatal(err)
	}
	rel, err := filepath.Rel(e.hostPath("."), outside)
	if err != nil {
		e.t.Fatal(err)
	}
	e.symlink(outside, "out-dir")
	e.symlink(secret, "out-file")
	e.symlink(filepath.Join(rel, "secret"), "out-rel")
	e.symlink(filepath.Join(outside, "nothing"), "out-dangling")
	e.symlink("out-dir", "out-chain")
	e.symlink("..", "up")
	e.mkdir("sub")
	e.symlink(filepath.Join("..", rel), "sub/up2")

	before := e.snapshot()
	for _, name := range []string{"out-dir/secret", "out-file", "out-rel", "out-chain/secret"} {
		_, err := e.s.Stat(ctx, name)
		e.wantErr("Stat("+name+")", err, store.ErrEscape)
		_, err = e.s.Open(ctx, name)
		e.wantErr("Open("+name+")", err, store.ErrEscape)
		_, err = e.s.WriteFile(ctx, name, strings.NewReader("pwned"), store.WriteOptions{})
		e.wantErr("WriteFile("+name+")", err, store.ErrEscape)
		_, err = e.s.WriteFile(ctx, name, strings.NewReader("pwned"), store.WriteOptions{Mode: store.Append})
		e.wantErr("WriteFile(append, "+name+")", err, store.ErrEscape)
		if strings.Contains(name, "/") {
			// (Renaming a link itself is fine: it moves the link.)
			if err := e.s.Rename(ctx, name, "stolen"); err == nil {
				e.t.Errorf("Rename(%s, stolen) succeeded", name)
			}
		}
		if err := store.Copy(ctx, e.s, name, "stolen"); err == nil {
			e.t.Errorf("Copy(%s, stolen) succeeded", name)
		}
	}
	for _, name := range []string{"out-dir", "out-chain", "up", "sub/up2"} {
		_, err := e.s.ReadDir(ctx, name)
		e.wantErr("ReadDir("+name+")", err, store.ErrEscape)
		e.wantErr("Mkdir("+name+"/x)", e.s.Mkdir(ctx, name+"/x"), store.ErrEscape)
		_, err = e.s.WriteFile(ctx, name+"/new", strings.NewReader("pwned"), store.WriteOptions{Mode: store.Exclusive})
		e.wantErr("WriteFile("+name+"/new)", err, store.ErrEscape)
		e.wantErr("Remove("+name+"/secret)", e.s.Remove(ctx, name+"/secret"), store.ErrEscape)
		if err := e.s.Rename(ctx, "d/f", name+"/moved"); err == nil {
			e.t.Errorf("Rename(d/f, %s/moved) succeeded", name)
		}
	}
	_, err = e.s.WriteFile(ctx, "out-dangling", strings.NewReader("pwned"), store.WriteOptions{})
	if err == nil {
		e.t.Errorf("WriteFile through a dangling link to outside succeeded")
	}
	e.sameTree("escapes", before)
	des, err := os.ReadDir(outside)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(des) != 1 {
		e.t.Errorf("the outside directory holds %d entries, want only the secret", len(des))
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "top secret" {
		e.t.Errorf("the outside secret changed: %q, %v", b, err)
	}
}
