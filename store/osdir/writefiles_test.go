//go:build unix

package osdir_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmfs/llmfs/store"
	"github.com/llmfs/llmfs/store/osdir"
)

// TestWriteFilesAsWriteFile writes one list of files by WriteFiles into a directory and
// by WriteFile, one at a time, into a twin, and compares what each file ends as and each
// write's error: the checks, the modes kept, a file named twice (the later write wins),
// symbolic links written through (relative, absolute, and one out of the root), other modes and more files than one batch holds.
func TestWriteFilesAsWriteFile(t *testing.T) {
	ctx := context.Background()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	setup := func(dir string) {
		for name, data := range map[string]string{"keep.txt": "old\n", "a/match.txt": "m\n", "a/stale.txt": "s\n", "a/there.txt": "t\n", "log.txt": "1\n"} {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.Chmod(filepath.Join(dir, "keep.txt"), 0o600)
		os.Symlink("match.txt", filepath.Join(dir, "a/link"))
		os.Symlink(filepath.Join(dir, "a/there.txt"), filepath.Join(dir, "a/abslink"))
		os.Symlink(outside, filepath.Join(dir, "a/outlink"))
		os.Mkdir(filepath.Join(dir, "adir"), 0o755)
	}
	files := []store.FileWrite{
		{Name: "keep.txt", Data: []byte("new\n")},
		{Name: "a/new.txt", Data: []byte("created\n")},
		{Name: "a/match.txt", Data: []byte("M\n"), Opts: store.WriteOptions{IfMatch: store.Hash([]byte("m\n"))}},
		{Name: "a/stale.txt", Data: []byte("S\n"), Opts: store.WriteOptions{IfMatch: store.Hash([]byte("other\n"))}},
		{Name: "a/there.txt", Data: []byte("T\n"), Opts: store.WriteOptions{IfAbsent: true}},
		{Name: "a/gone.txt", Data: []byte("G\n"), Opts: store.WriteOptions{IfMatch: store.Hash([]byte("g\n"))}},
		{Name: "a/link", Data: []byte("through the link\n")},
		{Name: "a/abslink", Data: []byte("through an absolute link\n")},
		{Name: "a/outlink", Data: []byte("out\n")},
		{Name: "adir", Data: []byte("x\n")},
		{Name: "log.txt", Data: []byte("2\n"), Opts: store.WriteOptions{Mode: store.Append}},
		{Name: "keep.txt", Data: []byte("newer\n")},
		{Name: "../out.txt", Data: []byte("x\n")},
		{Name: "nodir/f.txt", Data: []byte("x\n")},
	}
	for i := range 200 {
		files = append(files, store.FileWrite{Name: fmt.Sprintf("a/many%03d.txt", i), Data: []byte(fmt.Sprint(i))})
	}
	batchDir, oneDir := t.TempDir(), t.TempDir()
	setup(batchDir)
	setup(oneDir)
	bs, err := osdir.New(batchDir, false)
	if err != nil {
		t.Fatal(err)
	}
	os1, err := osdir.New(oneDir, false)
	if err != nil {
		t.Fatal(err)
	}
	errs := bs.WriteFiles(ctx, files)
	if len(errs) != len(files) {
		t.Fatalf("%d errors for %d files", len(errs), len(files))
	}
	for i, f := range files {
		_, want := os1.WriteFile(ctx, f.Name, bytes.NewReader(f.Data), f.Opts)
		if (errs[i] == nil) != (want == nil) || want != nil && errs[i].Error() != want.Error() {
			t.Errorf("%s: WriteFiles: %v; WriteFile: %v", f.Name, errs[i], want)
		}
	}
	for _, kind := range []error{store.ErrChanged, store.ErrIsDir, store.ErrInvalidName, store.ErrEscape} {
		found := false
		for _, err := range errs {
			found = found || errors.Is(err, kind)
		}
		if !found {
			t.Errorf("no write failed with %v: %v", kind, errs)
		}
	}
	compareTrees(t, batchDir, oneDir)
}

// compareTrees fails if the two directories differ in names, contents or modes.
func compareTrees(t *testing.T, a, b string) {
	t.Helper()
	tree := func(root string) map[string]string {
		m := map[string]string{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == root {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			fi, _ := os.Lstat(p)
			v := fi.Mode().String()
			if fi.Mode().IsRegular() {
				data, _ := os.ReadFile(p)
				v += " " + string(data)
			}
			m[rel] = v
			return nil
		})
		return m
	}
	ta, tb := tree(a), tree(b)
	for name, v := range tb {
		if ta[name] != v {
			t.Errorf("%s: batch %q, one by one %q", name, ta[name], v)
		}
	}
	for name := range ta {
		if _, ok := tb[name]; !ok {
			t.Errorf("%s: only after the batch", name)
		}
	}
}
