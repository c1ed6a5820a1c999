package storetest

import (
	"errors"
	"io/fs"
	"time"

	"github.com/llmfs/llmfs/store"
)

// testMakeSymlinks checks [store.Symlinker]: a link is stored as written, read back by
// Readlink, seen by Lstat and listings, followed by Stat and Open inside the store, and
// never followed outside it. Stores without it are skipped.
func testMakeSymlinks(e *env) {
	sl, ok := e.s.(store.Symlinker)
	if !ok {
		e.t.Skip("the store makes no symbolic links")
	}
	e.mkdir("d")
	e.write("d/f", "x")
	e.noErr("Symlink(d/f, ln)", sl.Symlink(ctx, "d/f", "ln"))
	e.noErr("Symlink(d, dl)", sl.Symlink(ctx, "d", "dl"))
	e.noErr("Symlink(f, d/rel)", sl.Symlink(ctx, "f", "d/rel"))
	e.noErr("Symlink(nothing, dang)", sl.Symlink(ctx, "nothing", "dang"))
	e.wantErr("Symlink over a link", sl.Symlink(ctx, "d", "ln"), fs.ErrExist)
	e.wantErr("Symlink over a file", sl.Symlink(ctx, "d", "d/f"), fs.ErrExist)
	e.wantErr("Symlink with no target", sl.Symlink(ctx, "", "empty"), fs.ErrInvalid)
	e.wantErr("Symlink in a missing directory", sl.Symlink(ctx, "d", "no/ln"), fs.ErrNotExist)

	for name, want := range map[string]string{"ln": "d/f", "dl": "d", "d/rel": "f", "dang": "nothing"} {
		got, err := sl.Readlink(ctx, name)
		if err != nil || got != want {
			e.t.Errorf("Readlink(%s) = %q, %v; want %q", name, got, err, want)
		}
		fi, err := sl.Lstat(ctx, name)
		e.noErr("Lstat("+name+")", err)
		if fi.Mode()&fs.ModeSymlink == 0 {
			e.t.Errorf("Lstat(%s): mode %v, want a link", name, fi.Mode())
		}
	}
	_, err := sl.Readlink(ctx, "d/f")
	e.wantErr("Readlink of a file", err, fs.ErrInvalid)
	_, err = sl.Readlink(ctx, "missing")
	e.wantErr("Readlink of nothing", err, fs.ErrNotExist)

	for _, name := range []string{"ln", "dl/f", "d/rel"} {
		if got := e.read(name); got != "x" {
			e.t.Errorf("read %s = %q, want x", name, got)
		}
		fi, err := e.s.Stat(ctx, name)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 1 {
			e.t.Errorf("Stat(%s) = %v, %v; want the target file", name, fi, err)
		}
	}
	if fi, err := e.s.Stat(ctx, "dl"); err != nil || !fi.IsDir() {
		e.t.Errorf("Stat(dl) = %v, %v; want the directory", fi, err)
	}
	_, err = e.s.Stat(ctx, "dang")
	e.wantErr("Stat of a dangling link", err, fs.ErrNotExist)
	got := e.snapshot()
	if _, ok := got["ln@"]; !ok || len(got) != 6 {
		e.t.Errorf("tree = %v, want d/, d/f and the four links", got)
	}

	// Removing or renaming a link touches the link only.
	e.noErr("Rename(dl, dl2)", e.s.Rename(ctx, "dl", "dl2"))
	if got, _ := sl.Readlink(ctx, "dl2"); got != "d" {
		e.t.Errorf("Readlink after a rename = %q, want d", got)
	}
	e.noErr("Remove(ln)", e.s.Remove(ctx, "ln"))
	if got := e.read("d/f"); got != "x" {
		e.t.Errorf("removing a link changed its target: %q", got)
	}
	if !e.opt.Unconfined {
		testMadeLinksStayInside(e, sl)
	}
}

// testMadeLinksStayInside: links whose targets lie outside are kept as written, and
// nothing reads through them.
func testMadeLinksStayInside(e *env, sl store.Symlinker) {
	for name, target := range map[string]string{"abs": "/etc/passwd", "up": "../../../../../../etc/passwd", "dup": "d/../../x"} {
		e.noErr("Symlink("+target+")", sl.Symlink(ctx, target, name))
		if got, err := sl.Readlink(ctx, name); err != nil || got != target {
			e.t.Errorf("Readlink(%s) = %q, %v; want %q as written", name, got, err, target)
		}
		if got, err := readFile(e.s, name); err == nil {
			e.t.Errorf("read %s through a link to %s = %.40q, want a refusal", name, target, got)
		}
		if _, err := store.RealName(ctx, e.s, name); !errors.Is(err, store.ErrEscape) {
			e.t.Errorf("RealName(%s) = %v, want ErrEscape", name, err)
		}
	}
}

// testAttrs checks [store.AttrSetter]: permission bits and modification times are kept as
// set, a replacing write keeps the bits, and a rename keeps both.
func testAttrs(e *env) {
	a, ok := e.s.(store.AttrSetter)
	if !ok {
		e.t.Skip("the store keeps no attributes")
	}
	e.write("f", "x")
	e.mkdir("d")
	e.noErr("Chmod(f, 0755)", a.Chmod(ctx, "f", 0o755))
	e.noErr("Chmod(d, 0700)", a.Chmod(ctx, "d", 0o700))
	then := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	e.noErr("Chtimes(f)", a.Chtimes(ctx, "f", then))
	check := func(what, name string, perm fs.FileMode, mtime time.Time) {
		e.t.Helper()
		fi, err := e.s.Stat(ctx, name)
		e.noErr("Stat("+name+")", err)
		if fi.Mode().Perm() != perm {
			e.t.Errorf("%s: Stat(%s) mode %v, want %v", what, name, fi.Mode(), perm)
		}
		if !mtime.IsZero() && !fi.ModTime().Equal(mtime) {
			e.t.Errorf("%s: Stat(%s) time %v, want %v", what, name, fi.ModTime(), mtime)
		}
	}
	check("after chmod", "f", 0o755, then)
	check("after chmod", "d", 0o700, time.Time{})
	des, err := e.s.ReadDir(ctx, ".")
	e.noErr("ReadDir", err)
	for _, de := range des {
		if de.Name() != "f" {
			continue
		}
		fi, err := de.Info()
		if err != nil || fi.Mode().Perm() != 0o755 || !fi.ModTime().Equal(then) {
			e.t.Errorf("ReadDir's f = %v, %v; want mode 0755 and the time set", fi, err)
		}
	}
	e.noErr("Rename", e.s.Rename(ctx, "f", "g"))
	check("after a rename", "g", 0o755, then)
	e.write("g", "new content")
	check("after a write", "g", 0o755, time.Time{})
	if fi, _ := e.s.Stat(ctx, "g"); fi != nil && fi.ModTime().Equal(then) {
		e.t.Errorf("a write kept the time set before it")
	}
	e.noErr("Chmod(g, 0644)", a.Chmod(ctx, "g", 0o644))
	check("after chmod -x", "g", 0o644, time.Time{})
	e.wantErr("Chmod of nothing", a.Chmod(ctx, "missing", 0o755), fs.ErrNotExist)
	e.wantErr("Chtimes of nothing", a.Chtimes(ctx, "missing", then), fs.ErrNotExist)
}

// testHardLinks checks [store.HardLinker]: a second name reads the same content, a taken
// name is [fs.ErrExist], and removing one name leaves the other.
func testHardLinks(e *env) {
	hl, ok := e.s.(store.HardLinker)
	if !ok {
		e.t.Skip("the store keeps one name per file")
	}
	e.mkdir("d")
	e.write("f", "x")
	e.write("g", "y")
	e.noErr("Link(f, d/h)", hl.Link(ctx, "f", "d/h"))
	if got := e.read("d/h"); got != "x" {
		e.t.Errorf("read d/h = %q, want x", got)
	}
	e.wantErr("Link over a file", hl.Link(ctx, "f", "g"), fs.ErrExist)
	e.wantErr("Link of nothing", hl.Link(ctx, "missing", "m2"), fs.ErrNotExist)
	e.noErr("Remove(f)", e.s.Remove(ctx, "f"))
	if got := e.read("d/h"); got != "x" {
		e.t.Errorf("after removing f: d/h = %q, want x", got)
	}
}
