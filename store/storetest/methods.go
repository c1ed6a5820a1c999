package storetest

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/llmfs/llmfs/store"
)

func testStat(e *env) {
	fi, err := e.s.Stat(ctx, ".")
	e.noErr("Stat(.)", err)
	if !fi.IsDir() {
		e.t.Errorf("Stat(.): mode %v, want a directory", fi.Mode())
	}
	before := time.Now().Add(-time.Minute)
	e.mkdir("d")
	e.write("d/f.txt", "hello")
	fi, err = e.s.Stat(ctx, "d/f.txt")
	e.noErr("Stat(d/f.txt)", err)
	if fi.Name() != "f.txt" || fi.Size() != 5 || !fi.Mode().IsRegular() || fi.IsDir() {
		e.t.Errorf("Stat(d/f.txt) = name %q size %d mode %v, want f.txt 5 regular", fi.Name(), fi.Size(), fi.Mode())
	}
	if mt := fi.ModTime(); mt.Before(before) || mt.After(time.Now().Add(time.Minute)) {
		e.t.Errorf("Stat(d/f.txt).ModTime() = %v, want about now", mt)
	}
	fi, err = e.s.Stat(ctx, "d")
	e.noErr("Stat(d)", err)
	if !fi.IsDir() || fi.Name() != "d" {
		e.t.Errorf("Stat(d) = name %q mode %v, want a directory d", fi.Name(), fi.Mode())
	}
	_, err = e.s.Stat(ctx, "missing")
	e.wantErr("Stat(missing)", err, fs.ErrNotExist)
	_, err = e.s.Stat(ctx, "d/missing/deeper")
	e.wantErr("Stat(d/missing/deeper)", err, fs.ErrNotExist)
	_, err = e.s.Stat(ctx, "d/f.txt/x")
	e.wantErr("Stat(d/f.txt/x)", err, store.ErrNotDir)
}

func testReadDir(e *env) {
	des, err := e.s.ReadDir(ctx, ".")
	e.noErr("ReadDir(.) of an empty store", err)
	if len(des) != 0 {
		e.t.Errorf("ReadDir(.) of an empty store: %d entries", len(des))
	}
	// Created out of order, listed sorted by byte order.
	for _, n := range []string{"b", "a.txt", "Z", "a", "c.go", "_"} {
		e.write(n, strings.Repeat("x", len(n)*10))
	}
	e.mkdir("dir")
	e.mkdir("0dir")
	e.write("dir/inner", "in")
	des, err = e.s.ReadDir(ctx, ".")
	e.noErr("ReadDir(.)", err)
	want := []string{"0dir", "Z", "_", "a", "a.txt", "b", "c.go", "dir"}
	var got []string
	for _, de := range des {
		got = append(got, de.Name())
		info, err := de.Info()
		if err != nil {
			e.t.Errorf("entry %q: Info: %v", de.Name(), err)
			continue
		}
		if info.Name() != de.Name() {
			e.t.Errorf("entry %q: Info().Name() = %q", de.Name(), info.Name())
		}
		isDir := strings.HasSuffix(de.Name(), "dir")
		switch {
		case isDir && (!de.IsDir() || !de.Type().IsDir() || !info.IsDir()):
			e.t.Errorf("entry %q: type %v, want a directory", de.Name(), de.Type())
		case !isDir && (de.IsDir() || de.Type() != 0 || !info.Mode().IsRegular()):
			e.t.Errorf("entry %q: type %v, want a regular file", de.Name(), de.Type())
		case !isDir && info.Size() != int64(len(de.Name())*10):
			e.t.Errorf("entry %q: size %d, want %d", de.Name(), info.Size(), len(de.Name())*10)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		e.t.Errorf("ReadDir(.) = %q, want %q", got, want)
	}
	des, err = e.s.ReadDir(ctx, "dir")
	e.noErr("ReadDir(dir)", err)
	if len(des) != 1 || des[0].Name() != "inner" {
		e.t.Errorf("ReadDir(dir) = %v, want [inner]", des)
	}
	_, err = e.s.ReadDir(ctx, "missing")
	e.wantErr("ReadDir(missing)", err, fs.ErrNotExist)
	_, err = e.s.ReadDir(ctx, "a.txt")
	e.wantErr("ReadDir(a.txt), a file", err, store.ErrNotDir)
}

func testOpen(e *env) {
	e.mkdir("d")
	e.write("d/f", "line 1\r\nline 2\n")
	f, err := e.s.Open(ctx, "d/f")
	e.noErr("Open(d/f)", err)
	fi, err := f.Stat()
	e.noErr("Stat of the open file", err)
	if fi.Size() != 15 || !fi.Mode().IsRegular() {
		e.t.Errorf("Stat of the open file: size %d mode %v", fi.Size(), fi.Mode())
	}
	b, err := io.ReadAll(f)
	e.noErr("reading d/f", err)
	if string(b) != "line 1\r\nline 2\n" {
		e.t.Errorf("content %q", b)
	}
	e.noErr("Close", f.Close())
	// As with an *os.File: a closed file reads no more, so code that reads after closing
	// fails on every store, not only on some.
	if _, err := f.Read(make([]byte, 1)); !errors.Is(err, fs.ErrClosed) {
		e.t.Errorf("Read after Close = %v, want fs.ErrClosed", err)
	}
	if got := e.read("d/f"); got != "line 1\r\nline 2\n" {
		e.t.Errorf("second read: %q", got)
	}
	e.write("empty", "")
	if got := e.read("empty"); got != "" {
		e.t.Errorf("empty file reads %q", got)
	}
	_, err = e.s.Open(ctx, "d")
	e.wantErr("Open(d), a directory", err, store.ErrIsDir)
	_, err = e.s.Open(ctx, ".")
	e.wantErr("Open(.), the root", err, store.ErrIsDir)
	_, err = e.s.Open(ctx, "missing")
	e.wantErr("Open(missing)", err, fs.ErrNotExist)
	_, err = e.s.Open(ctx, "d/f/x")
	e.wantErr("Open(d/f/x)", err, store.ErrNotDir)
}

func testMkdir(e *env) {
	e.mkdir("a")
	e.mkdir("a/b")
	if fi, err := e.s.Stat(ctx, "a/b"); err != nil || !fi.IsDir() {
		e.t.Errorf("Stat(a/b) after Mkdir = %v, %v", fi, err)
	}
	e.write("a/f", "x")
	before := e.snapshot()
	e.wantErr("Mkdir(a), exists", e.s.Mkdir(ctx, "a"), fs.ErrExist)
	e.wantErr("Mkdir(a/f), a file", e.s.Mkdir(ctx, "a/f"), fs.ErrExist)
	e.wantErr("Mkdir(.)", e.s.Mkdir(ctx, "."), fs.ErrExist)
	e.wantErr("Mkdir(x/y), parent missing", e.s.Mkdir(ctx, "x/y"), fs.ErrNotExist)
	e.wantErr("Mkdir(a/f/y), parent a file", e.s.Mkdir(ctx, "a/f/y"), store.ErrNotDir)
	e.sameTree("refused Mkdirs", before)
}

func testRemove(e *env) {
	e.mkdir("d")
	e.mkdir("d/empty")
	e.write("d/f", "x")
	e.write("top", "x")
	before := e.snapshot()
	e.wantErr("Remove(d), not empty", e.s.Remove(ctx, "d"), store.ErrNotEmpty)
	e.wantErr("Remove(missing)", e.s.Remove(ctx, "missing"), fs.ErrNotExist)
	e.wantErr("Remove(d/missing/x)", e.s.Remove(ctx, "d/missing/x"), fs.ErrNotExist)
	e.wantErr("Remove(top/x), below a file", e.s.Remove(ctx, "top/x"), store.ErrNotDir)
	if err := e.s.Remove(ctx, "."); err == nil {
		e.t.Errorf("Remove(.) succeeded")
	}
	e.sameTree("refused removes", before)
	e.noErr("Remove(d/f)", e.s.Remove(ctx, "d/f"))
	e.noErr("Remove(d/empty)", e.s.Remove(ctx, "d/empty"))
	e.noErr("Remove(d), now empty", e.s.Remove(ctx, "d"))
	e.noErr("Remove(top)", e.s.Remove(ctx, "top"))
	e.sameTree("removing everything", map[string]string{})
	_, err := e.s.Stat(ctx, "d")
	e.wantErr("Stat(d) after Remove", err, fs.ErrNotExist)
}

func testRename(e *env) {
	e.write("a", "A")
	e.mkdir("d")
	e.noErr("Rename(a, b)", e.s.Rename(ctx, "a", "b"))
	e.noErr("Rename(b, d/c)", e.s.Rename(ctx, "b", "d/c"))
	e.sameTree("renames", map[string]string{"d/": "", "d/c": "A"})
	e.write("x", "X")
	e.mkdir("e")
	before := e.snapshot()
	e.wantErr("Rename(x, d/c), destination exists", e.s.Rename(ctx, "x", "d/c"), fs.ErrExist)
	e.wantErr("Rename(x, d), destination a directory", e.s.Rename(ctx, "x", "d"), fs.ErrExist)
	e.wantErr("Rename(d, e), destination a directory", e.s.Rename(ctx, "d", "e"), fs.ErrExist)
	e.wantErr("Rename(e, x), destination a file", e.s.Rename(ctx, "e", "x"), fs.ErrExist)
	e.wantErr("Rename(missing, y)", e.s.Rename(ctx, "missing", "y"), fs.ErrNotExist)
	e.wantErr("Rename(x, missing/y), parent missing", e.s.Rename(ctx, "x", "missing/y"), fs.ErrNotExist)
	e.wantErr("Rename(x, d/c/y), parent a file", e.s.Rename(ctx, "x", "d/c/y"), store.ErrNotDir)
	if err := e.s.Rename(ctx, ".", "root"); err == nil {
		e.t.Errorf("Rename(., root) succeeded")
	}
	if err := e.s.Rename(ctx, "x", "."); err == nil {
		e.t.Errorf("Rename(x, .) succeeded")
	}
	if err := e.s.Rename(ctx, "x", "x"); err == nil {
		e.t.Errorf("Rename(x, x) succeeded")
	}
	e.sameTree("refused renames", before)
}

func testRenameDirectory(e *env) {
	e.mkdir("src")
	e.mkdir("src/sub")
	e.mkdir("src/sub/deep")
	e.write("src/a", "A")
	e.write("src/sub/b", "B")
	e.write("src/sub/deep/c", "C")
	e.mkdir("dst")
	before := e.snapshot()
	for _, to := range []string{"src/inside", "src/sub/inside", "src/sub/deep/inside", "src"} {
		if err := e.s.Rename(ctx, "src", to); err == nil {
			e.t.Errorf("Rename(src, %s) into its own subtree succeeded", to)
		}
	}
	e.sameTree("renames into the own subtree", before)
	e.noErr("Rename(src, dst/moved)", e.s.Rename(ctx, "src", "dst/moved"))
	e.sameTree("moving a directory", map[string]string{
		"dst/":                 "",
		"dst/moved/":           "",
		"dst/moved/a":          "A",
		"dst/moved/sub/":       "",
		"dst/moved/sub/b":      "B",
		"dst/moved/sub/deep/":  "",
		"dst/moved/sub/deep/c": "C",
	})
	// The moved tree is fully usable under its new name.
	e.write("dst/moved/sub/new", "N")
	e.noErr("Rename(dst/moved/sub, top)", e.s.Rename(ctx, "dst/moved/sub", "top"))
	if got := e.read("top/new"); got != "N" {
		e.t.Errorf("top/new = %q", got)
	}
	_, err := e.s.Stat(ctx, "dst/moved/sub")
	e.wantErr("Stat of the old name", err, fs.ErrNotExist)
}

func testCopy(e *env) {
	e.write("src", "content\n")
	e.mkdir("d")
	e.noErr("Copy(src, d/dst)", store.Copy(ctx, e.s, "src", "d/dst"))
	if got := e.read("d/dst"); got != "content\n" {
		e.t.Errorf("copy = %q", got)
	}
	// The copy is independent of the original.
	e.write("src", "changed")
	if got := e.read("d/dst"); got != "content\n" {
		e.t.Errorf("copy after the source changed = %q", got)
	}
	before := e.snapshot()
	e.wantErr("Copy onto an existing file", store.Copy(ctx, e.s, "src", "d/dst"), fs.ErrExist)
	e.wantErr("Copy onto a directory", store.Copy(ctx, e.s, "src", "d"), fs.ErrExist)
	e.wantErr("Copy of a missing file", store.Copy(ctx, e.s, "missing", "new"), fs.ErrNotExist)
	e.wantErr("Copy of a directory", store.Copy(ctx, e.s, "d", "new"), store.ErrIsDir)
	e.wantErr("Copy below a missing directory", store.Copy(ctx, e.s, "src", "missing/new"), fs.ErrNotExist)
	e.sameTree("refused copies", before)
}

func testLstat(e *env) {
	e.mkdir("d")
	e.write("d/f", "abc")
	fi, err := store.Lstat(ctx, e.s, "d/f")
	e.noErr("Lstat(d/f)", err)
	if fi.Size() != 3 || !fi.Mode().IsRegular() {
		e.t.Errorf("Lstat(d/f): size %d mode %v", fi.Size(), fi.Mode())
	}
	fi, err = store.Lstat(ctx, e.s, "d")
	e.noErr("Lstat(d)", err)
	if !fi.IsDir() {
		e.t.Errorf("Lstat(d): mode %v", fi.Mode())
	}
	_, err = store.Lstat(ctx, e.s, "missing")
	e.wantErr("Lstat(missing)", err, fs.ErrNotExist)
}

// invalidNames are names that fs.ValidPath refuses.
var invalidNames = []string{
	"", "/", "/a", "a/", "a//b", "./a", "a/.", "a/./b", "..", "../a", "a/..", "a/../b", "./", "//",
	"bad utf-8 \xff", "a/\xfe", // a JavaScript string (idb) would turn both into U+FFFD
}

func testInvalidNames(e *env) {
	e.mkdir("a")
	e.mkdir("a/b")
	e.write("a/f", "x")
	before := e.snapshot()
	for _, name := range invalidNames {
		r := func() io.Reader { return strings.NewReader("evil") }
		_, err := e.s.Stat(ctx, name)
		e.wantErr("Stat("+quote(name)+")", err, store.ErrInvalidName)
		_, err = e.s.ReadDir(ctx, name)
		e.wantErr("ReadDir("+quote(name)+")", err, store.ErrInvalidName)
		_, err = e.s.Open(ctx, name)
		e.wantErr("Open("+quote(name)+")", err, store.ErrInvalidName)
		for _, mode := range []store.WriteMode{store.Replace, store.Append, store.Exclusive} {
			_, err = e.s.WriteFile(ctx, name, r(), store.WriteOptions{Mode: mode})
			e.wantErr("WriteFile("+quote(name)+")", err, store.ErrInvalidName)
		}
		e.wantErr("Mkdir("+quote(name)+")", e.s.Mkdir(ctx, name), store.ErrInvalidName)
		e.wantErr("Remove("+quote(name)+")", e.s.Remove(ctx, name), store.ErrInvalidName)
		e.wantErr("Rename(a/f, "+quote(name)+")", e.s.Rename(ctx, "a/f", name), store.ErrInvalidName)
		e.wantErr("Rename("+quote(name)+", z)", e.s.Rename(ctx, name, "z"), store.ErrInvalidName)
		_, err = store.Lstat(ctx, e.s, name)
		e.wantErr("Lstat("+quote(name)+")", err, store.ErrInvalidName)
	}
	e.sameTree("invalid names", before)
}

// hostileNames are valid names that a careless store could mangle.
var hostileNames = []string{
	"with space",
	" leading space",
	"trailing space ",
	"  ",
	"cr\rlf\n",
	"\n",
	"ctl\x01\x07\x1b\x7f",
	"tab\there",
	"日本語のファイル名",
	"emoji 🎉",
	"%46",
	"%2F",
	"a\\b",
	"...",
	".hidden",
	"-dash",
	"*?[]{}",
	"'quote\"",
	"$HOME",
	strings.Repeat("x", 255),
	strings.Repeat("é", 127),
}

func testHostileNames(e *env) {
	e.mkdir("dir")
	want := map[string]string{"dir/": ""}
	for i, name := range hostileNames {
		content := "content " + strconv.Itoa(i)
		e.write(name, content)
		e.write("dir/"+name, content+" in dir")
		want[name] = content
		want["dir/"+name] = content + " in dir"
		fi, err := e.s.Stat(ctx, name)
		e.noErr("Stat("+quote(name)+")", err)
		if fi.Name() != name {
			e.t.Errorf("Stat(%q).Name() = %q", name, fi.Name())
		}
	}
	e.sameTree("hostile names", want)
	// A directory with a hostile name holds files like any other.
	deep := "dir/ sp /\r\n/日本"
	for _, d := range []string{"dir/ sp ", "dir/ sp /\r\n", deep} {
		e.mkdir(d)
	}
	e.write(deep+"/f", "deep")
	if got := e.read(deep + "/f"); got != "deep" {
		e.t.Errorf("read %q = %q", deep+"/f", got)
	}
	e.noErr("Rename to a hostile name", e.s.Rename(ctx, deep+"/f", "dir/ sp /\r\n/%46 ✓"))
	if got := e.read("dir/ sp /\r\n/%46 ✓"); got != "deep" {
		e.t.Errorf("after a rename to a hostile name: %q", got)
	}
	// A very deep path.
	p := "deep"
	e.mkdir(p)
	for range 40 {
		p += "/d"
		e.mkdir(p)
	}
	e.write(p+"/f", "bottom")
	if got := e.read(p + "/f"); got != "bottom" {
		e.t.Errorf("deep file = %q", got)
	}
}

func testNoAliasing(e *env) {
	b := []byte("original")
	_, err := e.s.WriteFile(ctx, "f", bytesReader(b), store.WriteOptions{})
	e.noErr("WriteFile", err)
	copy(b, "CHANGED!")
	if got := e.read("f"); got != "original" {
		e.t.Errorf("editing the written slice changed the file: %q", got)
	}
	f, err := e.s.Open(ctx, "f")
	e.noErr("Open", err)
	buf := make([]byte, 100)
	n, _ := io.ReadFull(f, buf)
	f.Close()
	copy(buf[:n], "XXXXXXXX")
	if got := e.read("f"); got != "original" {
		e.t.Errorf("editing the read slice changed the file: %q", got)
	}
	// Appending must not reuse the capacity of a slice a reader holds.
	r, err := e.s.Open(ctx, "f")
	e.noErr("Open", err)
	defer r.Close()
	_, err = e.s.WriteFile(ctx, "f", strings.NewReader(" more"), store.WriteOptions{Mode: store.Append})
	e.noErr("append", err)
	if got := e.read("f"); got != "original more" {
		e.t.Errorf("after append: %q", got)
	}
	// An open file keeps reading the content it was opened on when the file is replaced.
	old, err := e.s.Open(ctx, "f")
	e.noErr("Open", err)
	defer old.Close()
	e.write("f", "replaced")
	got, err := io.ReadAll(old)
	e.noErr("reading the replaced file", err)
	if string(got) != "original more" {
		e.t.Errorf("a file opened before a replace reads %q, want the old content", got)
	}
	// A copy is not an alias.
	e.noErr("Copy", store.Copy(ctx, e.s, "f", "g"))
	e.write("f", "again")
	if got := e.read("g"); got != "replaced" {
		e.t.Errorf("copy after the original was replaced: %q", got)
	}
}

type sliceReader struct{ b []byte }

func bytesReader(b []byte) io.Reader { return &sliceReader{b} }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, "\n", `\n`), "\r", `\r`) + `"`
}
